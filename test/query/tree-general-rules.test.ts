import { beforeAll, describe, expect, it } from 'vitest';
import { loadTree } from '../../src/query/tree/queries.js';
import type { CandidateNode, DecisionTree } from '../../src/query/tree/types.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { readStore } from './helpers/derived-store.js';
import { writeSynthetic, type SyntheticSession } from './helpers/synthetic-session.js';

/**
 * General reading rules of the tree, each told by a small session of its own (none is a story of the
 * eval corpus): a failure read from a host log file, a check through a reverse proxy, a benchmark
 * client that is no server, a served name shorter than its weights, a launch in a script-started
 * container, per-backend wheels, relative launchers, and a feature switch proposed next to the
 * setting it enables.
 */
const HOST_LOG: SyntheticSession = {
  id: 'syn-host-log-oom',
  title: 'LMDeploy from a log file',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-14B-Instruct with lmdeploy on gpu7 (one L40S).' },
    {
      role: 'assistant', text: 'Installing LMDeploy into a venv.',
      calls: [{ command: "ssh ops@gpu7 'python3 -m venv ~/lmd && ~/lmd/bin/pip install lmdeploy==0.7.3'", output: 'Successfully installed lmdeploy-0.7.3' }],
    },
    {
      role: 'assistant', text: 'Starting the server in the background.',
      calls: [{ command: "ssh ops@gpu7 'nohup ~/lmd/bin/lmdeploy serve api_server Qwen/Qwen2.5-14B-Instruct --server-port 23333 > ~/lmd.log 2>&1 &'", output: '' }],
    },
    {
      role: 'assistant', text: 'Reading the log.',
      calls: [{ command: "ssh ops@gpu7 'sleep 60; tail -5 ~/lmd.log'", output: 'Loading weights\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.20 GiB. GPU 0 has a total capacity of 44.39 GiB of which 512.00 MiB is free.' }],
    },
    { role: 'assistant', text: 'It runs out of GPU memory while loading; the bf16 weights leave no room for the cache.' },
  ],
};

const PROXY: SyntheticSession = {
  id: 'syn-proxy-health',
  title: 'vLLM behind nginx',
  steps: [
    { role: 'user', text: 'Deploy meta-llama/Llama-3.1-8B-Instruct with vLLM on box3 behind nginx at llm.example.internal.' },
    {
      role: 'assistant', text: 'Starting vLLM on port 8000.',
      calls: [{ command: "ssh ops@box3 'docker run -d --gpus all -p 127.0.0.1:8000:8000 vllm/vllm-openai:v0.8.5 --model meta-llama/Llama-3.1-8B-Instruct'", output: '3f2a9c' }],
    },
    {
      role: 'assistant', text: 'nginx is configured; checking through the proxy.',
      calls: [{ command: 'curl -s https://llm.example.internal/v1/models', output: '{"object":"list","data":[{"id":"meta-llama/Llama-3.1-8B-Instruct","object":"model"}]}' }],
    },
    { role: 'assistant', text: 'The model answers through nginx.' },
  ],
};

const BENCH_AND_SERVED_NAME: SyntheticSession = {
  id: 'syn-bench-served-name',
  title: 'vLLM with a served name and a benchmark',
  steps: [
    { role: 'user', text: 'Serve Qwen2.5-32B-Instruct with vLLM on node4 (2x A100 80GB) and benchmark it.' },
    {
      role: 'assistant', text: 'Starting vLLM with tensor parallel 2.',
      calls: [{ command: "ssh ops@node4 'docker run -d --name q32 --gpus all -p 8000:8000 -v /models:/models vllm/vllm-openai:v0.8.5 --model /models/Qwen2.5-32B-Instruct --served-model-name qwen2.5-32b --tensor-parallel-size 2'", output: 'a1b2c3' }],
    },
    {
      role: 'assistant', text: 'Health first.',
      calls: [{ command: "ssh ops@node4 'curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health'", output: '200\n' }],
    },
    {
      role: 'assistant', text: 'Now a short benchmark from inside the container.',
      calls: [{ command: "ssh ops@node4 'docker exec q32 python3 -m vllm.entrypoints.cli.main bench serve --backend openai --base-url http://localhost:8000 --model qwen2.5-32b --num-prompts 50'", output: 'Successful requests: 50\nOutput token throughput (tok/s): 912.4' }],
    },
    { role: 'assistant', text: 'Serving at node4:8000 as qwen2.5-32b; 912 output tok/s over 50 prompts.' },
  ],
};

const OPTIONS: SyntheticSession = {
  id: 'syn-options-proposed',
  title: 'Ollama tuning',
  steps: [
    { role: 'user', text: 'Run qwen2.5:14b with Ollama on the mac mini and tell me how to make it faster.' },
    {
      role: 'assistant', text: 'Pulling and running the model.',
      calls: [
        { command: 'ollama pull qwen2.5:14b', output: 'pulling manifest\nsuccess' },
        { command: 'curl -s localhost:11434/api/generate -d \'{"model":"qwen2.5:14b","prompt":"hi","stream":false}\'', output: '{"model":"qwen2.5:14b","response":"Hello!","done":true}' },
      ],
    },
    { role: 'assistant', text: 'It serves. If you want a longer context in the same memory, you could set `OLLAMA_FLASH_ATTENTION=1` and `OLLAMA_KV_CACHE_TYPE=q8_0` in the server environment.' },
    {
      role: 'assistant', text: 'Trying the vLLM image with `--enable-prefix-caching` could also help repeated prompts; checking it on the GPU box.',
      calls: [
        { command: "ssh ops@gpu2 'docker run -d --gpus all -p 8000:8000 vllm/vllm-openai:v0.8.5 --model Qwen/Qwen2.5-14B-Instruct --enable-prefix-caching'", output: 'c0ffee' },
        { command: "ssh ops@gpu2 'curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health'", output: '200\n' },
      ],
    },
    { role: 'assistant', text: 'vLLM with prefix caching answers on gpu2:8000.' },
  ],
};

const SCRIPTED_AND_WHEELS: SyntheticSession = {
  id: 'syn-scripted-container-wheels',
  title: 'vLLM in a script-started container; MLC wheels per backend',
  steps: [
    { role: 'user', text: 'Serve meta-llama/Llama-3.1-8B-Instruct with vLLM on gpu5, using our start script, then try MLC LLM on the workstation.' },
    {
      role: 'assistant', text: 'Pulling the image and starting the container with the team script.',
      calls: [
        { command: "ssh ops@gpu5 'docker pull vllm/vllm-openai:v0.8.5'", output: 'v0.8.5: Pulling from vllm/vllm-openai\nStatus: Downloaded newer image for vllm/vllm-openai:v0.8.5' },
        { command: "ssh ops@gpu5 'bash ~/start_node.sh vllm/vllm-openai:v0.8.5 llm-node'", output: 'started llm-node' },
      ],
    },
    {
      role: 'assistant', text: 'Launching the server inside the container.',
      calls: [{ command: "ssh ops@gpu5 'docker exec -d llm-node vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000'", output: '' }],
    },
    {
      role: 'assistant', text: 'Checking it.',
      calls: [{ command: "ssh ops@gpu5 'curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health'", output: '200\n' }],
    },
    {
      role: 'assistant', text: 'vLLM answers on gpu5. Now MLC on the workstation with the ROCm wheel; the Ollama model `llama3.2:3b` stays as it is.',
      calls: [
        { command: 'docker exec ollama ollama pull llama3.2:3b', output: 'pulling manifest\nsuccess' },
        { command: 'pip install --pre -f https://mlc.ai/wheels mlc-llm-nightly-rocm62 mlc-ai-nightly-rocm62', output: 'Successfully installed mlc-ai-nightly-rocm62-0.18.dev249 mlc-llm-nightly-rocm62-0.18.dev71' },
        { command: 'mlc_llm serve HF://mlc-ai/Llama-3.2-3B-Instruct-q4f16_1-MLC --device rocm --port 8000', output: 'hipErrorNoBinaryForGpu: Unable to find code object for all current devices!', exit: 1 },
      ],
    },
    { role: 'assistant', text: 'The ROCm wheel has no code for this GPU (hipErrorNoBinaryForGpu). We could also try `llama3.2:3b` on Ollama instead.' },
  ],
};

const CHECKOUT_LAUNCH: SyntheticSession = {
  id: 'syn-checkout-launch',
  title: 'TabbyAPI from a checkout',
  steps: [
    { role: 'user', text: 'Set up TabbyAPI on the 3090 box serving Qwen2.5-32B-Instruct-exl2 4.0bpw.' },
    {
      role: 'assistant', text: 'Cloning TabbyAPI.',
      calls: [{ command: 'git clone https://github.com/theroyallab/tabbyAPI ~/tabbyAPI', output: "Cloning into '/home/ops/tabbyAPI'..." }],
    },
    {
      role: 'assistant', text: 'Starting it with its start script, from its folder.',
      calls: [{ command: 'cd ~/tabbyAPI && nohup ./start.sh --config config.yml > tabby.log 2>&1 &', output: '' }],
    },
    {
      role: 'assistant', text: 'Checking the model list.',
      calls: [{ command: 'curl -s localhost:5000/v1/models', output: '{"object":"list","data":[{"id":"Qwen2.5-32B-Instruct-exl2_4.0bpw","object":"model"}]}' }],
    },
    { role: 'assistant', text: 'TabbyAPI serves the 4.0bpw quant on port 5000.' },
  ],
};

const BACKGROUND_OOM: SyntheticSession = {
  id: 'syn-background-oom',
  title: 'SGLang launched in the background, read in the same call',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-72B-Instruct with sglang on node9 (2x H100).' },
    {
      role: 'assistant', text: 'Installing SGLang.',
      calls: [{ command: "ssh ops@node9 'pip install sglang[all]==0.4.6.post1'", output: 'Successfully installed sglang-0.4.6.post1' }],
    },
    {
      role: 'assistant', text: 'Launching in the background and reading the log after a minute.',
      calls: [{ command: "ssh ops@node9 'nohup python3 -m sglang.launch_server --model-path Qwen/Qwen2.5-72B-Instruct --tp 1 --port 30000 > sgl.log 2>&1 & sleep 60; tail -3 sgl.log'", output: 'Load weight begin.\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 896.00 MiB. GPU 0 has a total capacity of 79.10 GiB of which 201.00 MiB is free.' }],
    },
    { role: 'assistant', text: 'The 72B model does not fit one H100 in bf16.' },
  ],
};

const trees = new Map<string, DecisionTree>();

beforeAll(async () => {
  for (const session of [HOST_LOG, PROXY, BENCH_AND_SERVED_NAME, OPTIONS, SCRIPTED_AND_WHEELS, CHECKOUT_LAUNCH, BACKGROUND_OOM]) {
    const db = tempDbPath(tempDir());
    await writeSynthetic(db, session);
    trees.set(session.id, (await readStore(db, (store) => loadTree(store, session.id))) as DecisionTree);
  }
});

function candidate(id: string, name: string): CandidateNode | undefined {
  return trees.get(id)?.candidates.find((c) => c.name === name);
}

describe('general reading rules of the tree', () => {
  it('takes a failure read from a host log file as the verdict of what was served on that host', () => {
    const lmdeploy = candidate(HOST_LOG.id, 'lmdeploy==0.7.3');
    expect(lmdeploy?.verdict).toBe('rejected');
    expect(lmdeploy?.reason).toMatch(/memory/i);
  });

  it('rejects a candidate that never answered when a precise failure showed in its own output', () => {
    const sglang = candidate(BACKGROUND_OOM.id, 'sglang[all]==0.4.6.post1');
    expect(sglang?.verdict).toBe('rejected');
    expect(sglang?.reason).toMatch(/memory/i);
  });

  it('credits a check through a reverse proxy to the server behind it, with its status', () => {
    const vllm = candidate(PROXY.id, 'vllm/vllm-openai:v0.8.5');
    expect(vllm?.verdict).toBe('accepted');
    expect(vllm?.reason).toContain('200');
  });

  it('does not take a benchmark client for a server, nor a served name for other weights', () => {
    const tree = trees.get(BENCH_AND_SERVED_NAME.id) as DecisionTree;
    expect(tree.candidates.map((c) => [c.name, c.verdict])).toEqual([['vllm/vllm-openai:v0.8.5', 'accepted']]);
  });

  it('gives a launch inside a container a script started to the image that script ran', () => {
    const tree = trees.get(SCRIPTED_AND_WHEELS.id) as DecisionTree;
    expect(candidate(SCRIPTED_AND_WHEELS.id, 'vllm/vllm-openai:v0.8.5')?.verdict).toBe('accepted');
    expect(tree.candidates.filter((c) => c.framework === 'vllm').map((c) => c.name)).toEqual(['vllm/vllm-openai:v0.8.5']);
  });

  it('names a wheel built for one backend by its package, and a model tag typed into a command is no lead', () => {
    const tree = trees.get(SCRIPTED_AND_WHEELS.id) as DecisionTree;
    expect(candidate(SCRIPTED_AND_WHEELS.id, 'mlc-llm-nightly-rocm62')).toMatchObject({ kind: 'framework', verdict: 'rejected' });
    expect(tree.candidates.map((c) => c.name)).not.toContain('llama3.2:3b');
  });

  it('reads a relative launcher in the folder the command changed to (`cd ~/tabbyAPI && ./start.sh`)', () => {
    const tree = trees.get(CHECKOUT_LAUNCH.id) as DecisionTree;
    expect(tree.candidates.map((c) => [c.framework, c.verdict])).toEqual([['exllama', 'accepted']]);
  });

  it('keeps a feature switch proposed next to the setting it enables inside that lead', () => {
    const names = (trees.get(OPTIONS.id) as DecisionTree).candidates.map((c) => c.name);
    expect(names).toContain('OLLAMA_KV_CACHE_TYPE=q8_0');
    expect(names).not.toContain('OLLAMA_FLASH_ATTENTION=1');
  });
});
