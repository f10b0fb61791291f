import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * General rules of the seventh round about what a candidate is and how it is named, each told by a
 * small session of its own (none is a story of the eval corpus).
 */
const SG = (args: string, extra = ''): string =>
  `ssh me@a1 'docker rm -f sg; docker run -d --name sg --gpus all --network host ${extra}lmsysorg/sglang:v0.4.7 python3 -m sglang.launch_server ${args} --port 30000'`;
const HEALTH = "ssh me@a1 'sleep 120; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:30000/health'";

/** Layouts compared while the checkpoint changed too: each is named by its layout, in the order typed. */
const LAYOUTS_AND_WEIGHTS: SyntheticSession = {
  id: 'syn-layouts-and-weights',
  title: 'Two nodes in bf16, then a quantized checkpoint in two layouts on one node',
  steps: [
    { role: 'user', text: 'Serve Llama-3.3-70B with SGLang on a1 (and a2 if needed), port 30000, as fast as possible per user.' },
    { role: 'assistant', text: 'Both nodes, bf16.', calls: [{ command: SG('--model-path /models/Llama-3.3-70B-Instruct --tp 8 --nnodes 2 --node-rank 0 --dist-init-addr 10.9.0.1:5000'), output: 'c1' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: HEALTH, output: '200' }] },
    {
      role: 'assistant',
      text: 'It answers, but at 6 tok/s per user it is far too slow across the two nodes. I would try a single node with the AWQ checkpoint first. '
        + 'Another option would be vLLM with pipeline parallel across the two nodes (PP2 sends less over the network). The AWQ checkpoint on one node, two replicas.',
      calls: [{ command: SG('--model-path org/Llama-3.3-70B-Instruct-AWQ --dp 2 --tp 2'), output: 'c2' }],
    },
    { role: 'assistant', text: 'Check.', calls: [{ command: HEALTH, output: '200' }] },
    { role: 'assistant', text: 'Per user it is still too slow (9 tok/s). All four GPUs for one replica.', calls: [{ command: SG('--model-path org/Llama-3.3-70B-Instruct-AWQ --tp 4'), output: 'c3' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: HEALTH, output: '200' }] },
    { role: 'assistant', text: '28 tok/s per user. Keeping this one.' },
  ],
};

const NIM = (env: string): string =>
  `ssh me@n1 'docker rm -f nim; docker run -d --name nim --gpus all -e NGC_API_KEY ${env}-p 8000:8000 nvcr.io/nim/meta/llama-3.1-70b-instruct:1.3.3'`;

/** A profile picked by a variable is called by the profile's name. */
const PROFILE_PICKED: SyntheticSession = {
  id: 'syn-profile-picked',
  title: 'A NIM run with its default profile, then with one pinned',
  steps: [
    { role: 'user', text: 'Run the llama-3.1-70b-instruct NIM on n1, port 8000.' },
    { role: 'assistant', text: 'Starting it.', calls: [{ command: NIM(''), output: 'd1' }] },
    { role: 'assistant', text: 'Logs.', calls: [{ command: "ssh me@n1 'sleep 200; docker logs nim 2>&1 | tail -2'", output: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.' }] },
    { role: 'assistant', text: 'Out of memory. Pinning the throughput profile.', calls: [{ command: NIM('-e NIM_MODEL_PROFILE=vllm-bf16-tp4-throughput '), output: 'd2' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: "ssh me@n1 'sleep 200; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/v1/health/ready'", output: '200' }] },
    { role: 'assistant', text: 'Ready.' },
  ],
};

const TGI = (tag: string): string => `ssh me@h1 'docker pull ghcr.io/huggingface/text-generation-inference:${tag}'`;

/** What is there, a cleanup offered and options the user chose among are no leads. */
const NOT_PROPOSED: SyntheticSession = {
  id: 'syn-not-proposed',
  title: 'A pinned tag, a statement about the image, a choice the user made, a cleanup offered',
  steps: [
    { role: 'user', text: 'Upgrade TGI on h1 to 3.1.0 and serve Qwen/Qwen2.5-7B-Instruct on port 8080.' },
    { role: 'assistant', text: 'The compose file pins `3.0.0`. The prebuilt TGI wheel is built against CUDA 12.4, which the driver supports. Pulling 3.1.0.', calls: [{ command: TGI('3.1.0'), exit: 1, output: 'Error response from daemon: manifest for ghcr.io/huggingface/text-generation-inference:3.1.0 not found: manifest unknown' }] },
    { role: 'assistant', text: 'No 3.1.0 in the registry. Options: `3.0.2` (same line as the pin) or `3.1.1` (newest). Which do you want?' },
    { role: 'user', text: '3.0.2, like the other boxes' },
    { role: 'assistant', text: 'Starting 3.0.2.', calls: [{ command: "ssh me@h1 'docker run -d --name tgi --gpus all -p 8080:80 ghcr.io/huggingface/text-generation-inference:3.0.2 --model-id Qwen/Qwen2.5-7B-Instruct; sleep 120; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8080/health'", output: '200' }] },
    { role: 'assistant', text: 'Serving. The cache still holds the unused TP2 shards of the old model; I can delete them if you want the space back.' },
  ],
};

const CHAT = (model: string): string => `curl -s -w "\\nHTTP %{http_code}\\n" localhost:11434/api/chat -d '{"model":"${model}","messages":[{"role":"user","content":"ping"}],"stream":false}'`;

/** The runtime already runs (a desktop app): the models made and asked for are the candidates, called by their names. */
const RUNTIME_MODELS: SyntheticSession = {
  id: 'syn-runtime-models',
  title: 'Two derived Ollama models with a longer context, asked through the API',
  steps: [
    { role: 'user', text: 'notes.py sends 12k-token prompts to llama3.2:3b through ollama on this laptop and the answers miss most of it. fix it; try qwen2.5:7b too.' },
    { role: 'assistant', text: 'Ollama runs the model with its default 4096 context. A model with a 16k context.', calls: [{ command: '', tool: 'Write', input: { file_path: '/Users/me/notes/Modelfile', content: 'FROM llama3.2:3b\nPARAMETER num_ctx 16384\n' }, output: 'File created' }] },
    { role: 'assistant', text: 'Creating and asking it.', calls: [{ command: 'ollama create llama3.2-16k -f Modelfile', output: 'gathering model components\nwriting manifest\nsuccess' }, { command: CHAT('llama3.2-16k'), output: '{"message":{"role":"assistant","content":"Pong!"},"done":true}\nHTTP 200' }] },
    { role: 'assistant', text: 'Now qwen2.5:7b the same way.', calls: [{ command: 'ollama pull qwen2.5:7b', output: 'pulling manifest\nsuccess' }, { command: 'ollama create qwen2.5-16k -f Modelfile.qwen', output: 'success' }, { command: CHAT('qwen2.5-16k'), output: '{"message":{"role":"assistant","content":"Pong."},"done":true}\nHTTP 200' }] },
    { role: 'assistant', text: 'Both answer with the whole prompt; notes.py now uses llama3.2-16k.' },
  ],
};

/** Beside another stack, a model of the runtime is called by the runtime and the model. */
const RUNTIME_AND_STACK: SyntheticSession = {
  id: 'syn-runtime-and-stack',
  title: 'An Ollama model asked through the API, then vLLM',
  steps: [
    { role: 'user', text: 'Compare qwen2.5:7b on ollama here with vLLM on gpu1.' },
    { role: 'assistant', text: 'Ollama first.', calls: [{ command: CHAT('qwen2.5:7b'), output: '{"message":{"role":"assistant","content":"Pong."},"done":true}\nHTTP 200' }] },
    { role: 'assistant', text: 'Now vLLM.', calls: [{ command: "ssh me@gpu1 'docker run -d --gpus all -p 8000:8000 vllm/vllm-openai:v0.8.5 --model Qwen/Qwen2.5-7B-Instruct; sleep 90; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'Both serve.' },
  ],
};

/** A container started only to build in is no setting: the one launch of the stack built in it is the candidate itself. */
const BUILD_CONTAINER: SyntheticSession = {
  id: 'syn-build-container',
  title: 'vLLM built inside a PyTorch container, committed and served',
  steps: [
    { role: 'user', text: 'Build vLLM for this GPU inside the NGC PyTorch container on g2 and serve Qwen/Qwen3-8B on port 8000.' },
    { role: 'assistant', text: 'A container to build in.', calls: [{ command: "ssh me@g2 'docker run -d --name b --gpus all nvcr.io/nvidia/pytorch:25.09-py3 sleep infinity'", output: 'f00d' }] },
    { role: 'assistant', text: 'Building.', calls: [{ command: "ssh me@g2 'docker exec b pip install vllm==0.10.2 && docker commit b vllm-local:0.10.2'", output: 'Successfully installed vllm-0.10.2\nsha256:beef' }] },
    { role: 'assistant', text: 'Serving.', calls: [{ command: "ssh me@g2 'docker run -d --name v --gpus all -p 8000:8000 vllm-local:0.10.2 vllm serve Qwen/Qwen3-8B --max-model-len 32768; sleep 120; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'Serving on :8000.' },
  ],
};

const trees = syntheticTrees([LAYOUTS_AND_WEIGHTS, PROFILE_PICKED, NOT_PROPOSED, RUNTIME_MODELS, RUNTIME_AND_STACK, BUILD_CONTAINER], 'retrace-tree7r-');

describe('approaches named by what changed', () => {
  it('a layout that changed names the approach even when the checkpoint changed with it; options in the order typed, a spread over nodes by its flags', () => {
    const approaches = trees.tree('syn-layouts-and-weights')?.candidates.filter((c) => c.kind === 'approach' && c.verdict !== 'untested').map((c) => c.name);
    expect(approaches).toEqual(['--tp 8 --nnodes 2', 'dp2 tp2', '--tp 4']);
  });

  it('a container started only to build in is no setting of its own', () => {
    expect(trees.tree('syn-build-container')?.candidates.filter((c) => c.kind === 'approach').map((c) => c.name)).toEqual([]);
  });

  it('a preset picked by a variable (a NIM profile) is called by its value', () => {
    expect(trees.candidate('syn-profile-picked', 'vllm-bf16-tp4-throughput')?.verdict).toBe('accepted');
  });
});

describe('leads are what the assistant proposes to run', () => {
  it('an option for another stack is named with that stack; one node is tried once the session moved from two nodes to one after naming it', () => {
    expect(trees.names('syn-layouts-and-weights').filter((n) => n.endsWith(' untested'))).toEqual(['vLLM --pipeline-parallel-size 2 untested']);
  });

  it('a tag a file pins, a statement about an image, an option the user chose against and a cleanup offered are no leads', () => {
    expect(trees.names('syn-not-proposed')).toEqual([
      'ghcr.io/huggingface/text-generation-inference:3.1.0 rejected',
      'ghcr.io/huggingface/text-generation-inference:3.0.2 accepted',
    ]);
  });
});

describe('the models of one runtime are its candidates', () => {
  it('a model made with `ollama create` and asked through the API is tried, as its base when the Modelfile names one; the runtime itself is no untested lead', () => {
    expect(trees.names('syn-runtime-models')).toEqual(['llama3.2:3b accepted', 'qwen2.5-16k accepted']);
    // `ollama create NAME` builds the model it names (rules/ollama.yaml `build:`); asking for NAME asks for its base.
    expect(trees.candidate('syn-runtime-models', 'llama3.2:3b')?.evidence.map((e) => e.kind)).toEqual(['build', 'health']);
  });

  it('beside another stack, a model is called by the runtime and the model', () => {
    expect(trees.names('syn-runtime-and-stack')).toEqual(['ollama qwen2.5:7b accepted', 'vllm/vllm-openai:v0.8.5 accepted']);
  });
});
