import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * The twelfth round's rules, each on a session of its own (none is a story of the eval corpus):
 * - "none reaches 25 tok/s", "falls short of", "still short" judge a measured rate too slow;
 * - a chat endpoint refused (TGI's "Template error: template not found") is not put right by another path answering
 *   (`/health`, a raw `/generate`), only by that endpoint or a relaunch that answers;
 * - a launch from a local folder named for its weights is called by them, not by the short name it is served under;
 * - a Kubernetes resource as kubectl names it (`svc/vllm-router-service`) is no image lead, though a stack's name is in it;
 *   a number measured in a unit after a stack's image (`… 4.1 GB`) is no version of it;
 * - a path is another launch's weights only as a whole word: `/models/X` is no part of `/models/X-AWQ`.
 * (A sidecar the user asked for is in tree-unknown-stacks.test.ts; a glob of profile names in lead-prose.test.ts.)
 */
const SERVE = (tp: number): string =>
  `ssh me@w2 'docker rm -f v; docker run -d --name v --gpus all -p 8000:8000 vllm/vllm-openai:v0.9.2 --model Qwen/Qwen2.5-72B-Instruct-AWQ --tensor-parallel-size ${tp}'`;
const RATE = (rate: number): { command: string; output: string } => ({
  command: "ssh me@w2 'sleep 120; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health; python3 bench.py --port 8000 | tail -1'",
  output: `200\nmean decode: ${rate} tok/s per user`,
});

/** Two layouts measured against a rate the user set; the last words say neither reaches it. */
const NONE_REACHES: SyntheticSession = {
  id: 'syn-none-reaches',
  title: 'Two layouts, neither fast enough',
  steps: [
    { role: 'user', text: 'Bring up Qwen2.5-72B-Instruct-AWQ with vLLM on w2 (4x L40S), port 8000, at least 25 tok/s per user.' },
    { role: 'assistant', text: 'TP4 first.', calls: [{ command: SERVE(4), output: 'a1' }, RATE(11.4)] },
    { role: 'assistant', text: 'Only 11.4 tok/s on TP4: too slow. TP2 on the two GPUs of one socket.', calls: [{ command: SERVE(2), output: 'a2' }, RATE(15.9)] },
    { role: 'assistant', text: 'Better, still short. None reaches 25 tok/s per user for the 72B on this box. Stopping here.' },
  ],
};

const CHAT = (model: string): string =>
  `ssh me@w3 'curl -s -w "\\nHTTP %{http_code}\\n" localhost:8080/v1/chat/completions -H "Content-Type: application/json" -d "{\\"model\\":\\"${model}\\",\\"messages\\":[{\\"role\\":\\"user\\",\\"content\\":\\"hi\\"}]}"'`;
const GENERATE = "ssh me@w3 'curl -s localhost:8080/generate -H \"Content-Type: application/json\" -d \"{\\\"inputs\\\":\\\"[INST]hi[/INST]\\\",\\\"parameters\\\":{\\\"max_new_tokens\\\":20}}\"'";
const TGI = "ssh me@w3 'docker run -d --name tgi --gpus all -p 8080:80 -v /models:/models ghcr.io/huggingface/text-generation-inference:2.4.1 --model-id /models/acme-nemo-12b'";
const VLLM = "ssh me@w3 'docker rm -f tgi; docker run -d --name v --gpus all -p 8080:8000 -v /models:/models vllm/vllm-openai:v0.9.2 --model /models/acme-nemo-12b --chat-template /models/nemo.jinja'";

/** The chat endpoint refuses a fine-tune with no chat template; the raw endpoint answers; the session moves to vLLM. */
const CHAT_REFUSED: SyntheticSession = {
  id: 'syn-chat-refused',
  title: 'TGI refuses chat for a model without a template',
  steps: [
    { role: 'user', text: 'Serve /models/acme-nemo-12b with TGI on w3, port 8080; the bot uses /v1/chat/completions.' },
    { role: 'assistant', text: 'Starting TGI.', calls: [{ command: TGI, output: 'c1' }] },
    { role: 'assistant', text: 'Health, then chat.', calls: [
      { command: "ssh me@w3 'sleep 90; curl -s -o /dev/null -w \"health %{http_code}\\n\" localhost:8080/health'", output: 'health 200' },
      { command: CHAT('tgi'), exit: 0, output: '{"error":"Template error: template not found","error_type":"template_error"}\nHTTP 422' },
    ] },
    { role: 'assistant', text: 'The raw endpoint works, so the model is fine.', calls: [{ command: GENERATE, output: '[{"generated_text":"Hello! How can I help you today?"}]' }] },
    { role: 'assistant', text: 'TGI cannot take a chat template at launch; vLLM can.', calls: [{ command: VLLM, output: 'c2' }] },
    { role: 'assistant', text: 'Chat through vLLM.', calls: [{ command: CHAT('/models/acme-nemo-12b'), output: '{"id":"chatcmpl-1","choices":[{"message":{"role":"assistant","content":"Hello!"}}]}\nHTTP 200' }] },
    { role: 'assistant', text: 'vLLM serves chat on 8080.' },
  ],
};

const MYTHO = (len: number, home: string): string =>
  `ssh sam@w4 '${home}/venvs/vllm/bin/vllm serve ${home}/models/MythoMax-L2-13B-GPTQ --served-model-name mythomax --max-model-len ${len} --port 8000'`;

/** The same folder by `~` and by its absolute path, served under a short name: one weights, named by their folder. */
const SERVED_NAME: SyntheticSession = {
  id: 'syn-served-name',
  title: 'A local folder served under a short name',
  steps: [
    { role: 'user', text: 'Serve ~/models/MythoMax-L2-13B-GPTQ with vLLM on w4 with 8k context.' },
    { role: 'assistant', text: '8k first.', calls: [{ command: MYTHO(8192, '~'), exit: 1, output: 'ValueError: User-specified max_model_len (8192) is greater than the derived max_model_len (max_position_embeddings=4096 in model\'s config.json).' }] },
    { role: 'assistant', text: 'The model is 4k native. 4096.', calls: [{ command: MYTHO(4096, '~'), output: 'INFO:     Uvicorn running on http://0.0.0.0:8000' }] },
    { role: 'assistant', text: 'Now as a unit, with the absolute path.', calls: [{ command: MYTHO(4096, '/home/sam'), output: 'INFO:     Uvicorn running on http://0.0.0.0:8000' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: "ssh sam@w4 'curl -s -o /dev/null -w \"health %{http_code}\\n\" localhost:8000/health'", output: 'health 200' }] },
    { role: 'assistant', text: 'Serving at 4k.' },
  ],
};

/** A served stack, then prose naming a cluster resource, an image's size, and one real alternative. */
const RESOURCE_NAMES: SyntheticSession = {
  id: 'syn-resource-names',
  title: 'Cluster resources and sizes in the closing words',
  steps: [
    { role: 'user', text: 'Deploy Qwen/Qwen2.5-7B-Instruct with vLLM on the cluster, reachable through the router.' },
    { role: 'assistant', text: 'Serving.', calls: [{ command: "ssh me@k1 'docker run -d --name v --gpus all -p 8000:8000 vllm/vllm-openai:v0.9.2 --model Qwen/Qwen2.5-7B-Instruct; sleep 90; curl -s localhost:8000/v1/models'", output: '{"object":"list","data":[{"id":"Qwen/Qwen2.5-7B-Instruct"}]}' }] },
    { role: 'assistant', text: 'Done. If you want, we could port-forward `svc/vllm-router-service` to test from a laptop, or try `lmsysorg/sglang:v0.4.6.post5-cu124` instead. The image `vllm/vllm-openai:v0.9.2` 9.8 GB stays on the node.' },
  ],
};

const RAY = (model: string, pp: string): string =>
  `ssh me@h1 'docker run -d --name v --gpus all --ipc host -p 8000:8000 -v /data/models:/models vllm/vllm-openai:v0.8.5 --model ${model} --served-model-name qwen2.5-72b --tensor-parallel-size 4${pp} --max-model-len 16384'`;

/** The full model over two nodes fails; its AWQ build on one: a path that begins another is not that other. */
const PREFIX_PATH: SyntheticSession = {
  id: 'syn-prefix-path',
  title: 'A model and its AWQ build, one path the start of the other',
  steps: [
    { role: 'user', text: 'Serve Qwen2.5-72B-Instruct with vLLM on h1 and h2 (4x A10G each), port 8000.' },
    { role: 'assistant', text: 'Both nodes, TP4 x PP2.', calls: [{ command: RAY('/models/Qwen2.5-72B-Instruct', ' --pipeline-parallel-size 2 --distributed-executor-backend ray'), exit: 1, output: 'torch.distributed.DistBackendError: NCCL error: remote process exited or there was a network error' }] },
    { role: 'assistant', text: 'NCCL across the nodes fails. The AWQ build fits one node.', calls: [{ command: RAY('/models/Qwen2.5-72B-Instruct-AWQ', ''), exit: 1, output: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB' }] },
    { role: 'assistant', text: 'Neither fits. Stopping.' },
  ],
};

const trees = syntheticTrees([NONE_REACHES, CHAT_REFUSED, SERVED_NAME, RESOURCE_NAMES, PREFIX_PATH], 'retrace-tree12r-');

describe('the twelfth round', () => {
  it('"none reaches 25 tok/s" judges the last layout measured too slow: nothing is accepted', () => {
    const names = trees.names('syn-none-reaches');
    expect(names.filter((n) => n.endsWith(' accepted'))).toEqual([]);
    expect(names).toContain('--tensor-parallel-size 2 rejected');
    expect(trees.candidate('syn-none-reaches', '--tensor-parallel-size 2')?.reason).toMatch(/too slow — .*None reaches 25 tok\/s/);
  });

  it('a chat endpoint refused is not put right by a raw endpoint answering: the server is rejected with the refusal', () => {
    const tgi = trees.candidate('syn-chat-refused', 'ghcr.io/huggingface/text-generation-inference:2.4.1');
    expect(tgi?.verdict).toBe('rejected');
    expect(tgi?.reason).toMatch(/template not found/);
    expect(trees.candidate('syn-chat-refused', 'vllm/vllm-openai:v0.9.2')?.verdict).toBe('accepted');
  });

  it('a folder named for its weights names the approaches, by `~` or by its absolute path alike', () => {
    expect(trees.names('syn-served-name')).toEqual(['vLLM accepted', '--max-model-len 8192 rejected', '--max-model-len 4096 accepted']);
  });

  it('a cluster resource and an image\'s size are no leads; the other image proposed is', () => {
    expect(trees.names('syn-resource-names')).toEqual(['vllm/vllm-openai:v0.9.2 accepted', 'lmsysorg/sglang:v0.4.6.post5-cu124 untested']);
  });

  it('a path that is the start of another launch\'s path is other weights: the approach is called by them', () => {
    expect(trees.names('syn-prefix-path')).toEqual(['vllm/vllm-openai:v0.8.5 rejected', '--pipeline-parallel-size 2 rejected', 'Qwen2.5-72B-Instruct-AWQ rejected']);
  });
});
