import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * General rules of the sixth round, each told by a small session of its own (none is a story of the
 * eval corpus): an override compose file that swaps the image, a candidate whose last try served
 * after earlier failures, a setting that defines the deployment changed on a working server.
 */
const BASE_COMPOSE = 'services:\n  llm:\n    image: vllm/vllm-openai:v0.9.0\n    command: --model Qwen/Qwen2.5-7B-Instruct --port 8000\n    ports: ["8000:8000"]\n';
const OVERRIDE_COMPOSE = 'services:\n  llm:\n    image: nvcr.io/nvidia/vllm:25.09-py3\n    entrypoint: ["vllm", "serve"]\n    command: Qwen/Qwen2.5-7B-Instruct --port 8000\n';

const COMPOSE_OVERRIDE: SyntheticSession = {
  id: 'syn-compose-override',
  title: 'An override compose file swaps the image for one host',
  steps: [
    { role: 'user', text: 'Bring up vLLM with Qwen/Qwen2.5-7B-Instruct on arm1 using our compose stack.' },
    { role: 'assistant', text: 'The stack first.', calls: [{ command: '', tool: 'Read', input: { file_path: '/home/ops/stack/compose.yaml' }, output: BASE_COMPOSE }] },
    { role: 'assistant', text: 'An override for this host.', calls: [{ command: '', tool: 'Write', input: { file_path: '/home/ops/stack/compose.arm.yaml', content: OVERRIDE_COMPOSE }, output: 'File created' }] },
    { role: 'assistant', text: 'Starting.', calls: [{ command: 'cd /home/ops/stack && DOCKER_HOST=ssh://me@arm1 docker compose -f compose.yaml -f compose.arm.yaml up -d', output: ' ✔ Container stack-llm-1  Started' }] },
    { role: 'assistant', text: 'Checking.', calls: [{ command: "ssh me@arm1 'sleep 60; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/v1/models'", output: '200' }] },
    { role: 'assistant', text: 'It answers.' },
  ],
};


const LAUNCH = "ssh me@g1 'docker rm -f sg; docker run -d --name sg --gpus all -p 30000:30000 lmsysorg/sglang:v0.4.7 python3 -m sglang.launch_server --model-path Qwen/Qwen2.5-32B-Instruct --port 30000 --speculative-algorithm EAGLE --speculative-draft-model-path org/qwen-eagle-draft";
const BENCH = "ssh me@g1 'docker exec sg python3 -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 32 2>&1 | tail -2'";

/** Two draft settings compared on a working server; the second also needed a routine fix; the session goes back to the first. */
const DRAFTS_COMPARED: SyntheticSession = {
  id: 'syn-drafts-compared',
  title: 'Two speculative settings compared, the first kept',
  steps: [
    { role: 'user', text: 'Serve Qwen/Qwen2.5-32B-Instruct with SGLang and speculative decoding on g1, port 30000.' },
    { role: 'assistant', text: 'The small draft first.', calls: [{ command: `${LAUNCH} --speculative-num-steps 2 --speculative-eagle-topk 1 --mem-fraction-static 0.8'`, output: 'a1' }] },
    { role: 'assistant', text: 'Benchmark.', calls: [{ command: BENCH, output: 'Successful requests:                     32\nOutput token throughput (tok/s):         900.10' }] },
    { role: 'assistant', text: '900 tok/s. Now the wide draft.', calls: [{ command: `${LAUNCH} --speculative-num-steps 6 --speculative-eagle-topk 4 --mem-fraction-static 0.8'; sleep 120; docker logs sg 2>&1 | tail -1`, exit: 1, output: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB.' }] },
    { role: 'assistant', text: 'Out of memory capturing graphs; capping the graph batch size.', calls: [{ command: `${LAUNCH} --speculative-num-steps 6 --speculative-eagle-topk 4 --mem-fraction-static 0.8 --cuda-graph-max-bs 16'`, output: 'a2' }] },
    { role: 'assistant', text: 'Benchmark.', calls: [{ command: BENCH, output: 'Successful requests:                     32\nOutput token throughput (tok/s):         410.50' }] },
    { role: 'assistant', text: 'The wide draft is much too slow at this concurrency (410 tok/s vs 900). Going back to the small draft.', calls: [{ command: `${LAUNCH} --speculative-num-steps 2 --speculative-eagle-topk 1 --mem-fraction-static 0.8'`, output: 'a3' }] },
    { role: 'assistant', text: 'Check.', calls: [{ command: "ssh me@g1 'sleep 90; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:30000/health'", output: '200' }] },
    { role: 'assistant', text: 'Done. Running: the small draft on v0.4.7. Rejected: the wide draft (OOM, then too slow at 32 concurrent). With --speculative-num-steps 6 it was far too slow at 32 concurrent.' },
  ],
};

/** A summary that judges another candidate, and slowness told as put right, do not reject the one that served. */
const SUMMARY_OF_OTHERS: SyntheticSession = {
  id: 'syn-summary-of-others',
  title: 'A summary naming the slow candidate after the one that served',
  steps: [
    { role: 'user', text: 'Serve meta-llama/Llama-3.1-8B-Instruct with vLLM on n1, port 8000.' },
    { role: 'assistant', text: 'Old image.', calls: [{ command: "ssh me@n1 'docker run -d --name v --gpus all -p 8000:8000 vllm/vllm-openai:v0.5.0 --model meta-llama/Llama-3.1-8B-Instruct; sleep 90; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'It answers at 12 tok/s, much slower than it should be; trying the newer image.', calls: [{ command: "ssh me@n1 'docker rm -f v; docker run -d --name v --gpus all -p 8000:8000 vllm/vllm-openai:v0.8.5 --model meta-llama/Llama-3.1-8B-Instruct; sleep 90; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'Up on v0.8.5 at 95 tok/s.' },
    { role: 'assistant', text: 'Summary: running vllm/vllm-openai:v0.8.5. Rejected: v0.5.0 (too slow, 12 tok/s). The old driver was too slow too, and the upgrade fixed it.' },
  ],
};

/** Leads in prose: a stack qualified by its backend, and stacks the rule files know by name only. */
const BACKEND_LEADS: SyntheticSession = {
  id: 'syn-backend-leads',
  title: 'CPU-only box, leads named with their backends',
  steps: [
    { role: 'user', text: 'Serve llama3.1:8b with ollama on cpu1 (no GPU).' },
    { role: 'assistant', text: 'Installing and running.', calls: [{ command: "ssh me@cpu1 'curl -fsSL https://ollama.com/install.sh | sh && ollama run llama3.1:8b \"hi\" --verbose 2>&1 | tail -2'", output: 'Hello!\neval rate:            2.10 tokens/s' }] },
    { role: 'assistant', text: 'It answers at 2.1 tokens/s, far below what you need. I haven\'t tried vLLM\'s CPU backend or Intel\'s IPEX-LLM; exo could also split it across the two boxes.' },
    { role: 'assistant', text: 'Not tried either: ollama\'s Vulkan backend (`--backend vulkan`).' },
  ],
};

/** A fix told before the slowness is not the slowness put right: the sentence still judges. */
const FIXED_BUT_STILL_SLOW: SyntheticSession = {
  id: 'syn-fixed-but-still-slow',
  title: 'A port fixed, the server still far too slow',
  steps: [
    { role: 'user', text: 'Serve meta-llama/Llama-3.1-8B-Instruct with vLLM on n1, port 8000.' },
    { role: 'assistant', text: 'Starting.', calls: [{ command: "ssh me@n1 'docker run -d --name v --gpus all -p 8000:8000 vllm/vllm-openai:v0.5.0 --model meta-llama/Llama-3.1-8B-Instruct; sleep 90; curl -s -o /dev/null -w \"%{http_code}\\n\" localhost:8000/health'", output: '200' }] },
    { role: 'assistant', text: 'After I fixed the port mapping, it is still far too slow at 3 tok/s. Stopping here.' },
  ],
};

const SESSIONS = [COMPOSE_OVERRIDE, DRAFTS_COMPARED, SUMMARY_OF_OTHERS, BACKEND_LEADS, FIXED_BUT_STILL_SLOW];
const { tree, candidate, names } = syntheticTrees(SESSIONS, 'retrace-tree-sixth-');

describe('the sixth round of general rules', () => {
  it('docker compose with several -f files runs the image the last file that sets it names', () => {
    expect(names(COMPOSE_OVERRIDE.id)).toEqual(['nvcr.io/nvidia/vllm:25.09-py3 accepted']);
    expect(candidate(COMPOSE_OVERRIDE.id, 'nvcr.io/nvidia/vllm:25.09-py3')?.reason).toContain('200');
  });

  it('speculative settings changed on a working server are two approaches named by the options of that feature; the flag that mended the compared one stays within it; the image the last one ran on is accepted', () => {
    expect(names(DRAFTS_COMPARED.id)).toEqual([
      'lmsysorg/sglang:v0.4.7 accepted',
      '--speculative-num-steps 2 --speculative-eagle-topk 1 accepted',
      '--speculative-num-steps 6 --speculative-eagle-topk 4 rejected',
    ]);
    expect(candidate(DRAFTS_COMPARED.id, '--speculative-num-steps 6 --speculative-eagle-topk 4')?.reason).toContain('too slow');
  });

  it('a summary\'s "Rejected: X (too slow)" and slowness told as fixed leave the candidate that served accepted', () => {
    expect(names(SUMMARY_OF_OTHERS.id)).toEqual(['vllm/vllm-openai:v0.5.0 rejected', 'vllm/vllm-openai:v0.8.5 accepted']);
  });

  it('a stack named with its backend ("vLLM\'s CPU backend") is a lead of its own; IPEX-LLM and exo are serving stacks; one named beside its option is that option', () => {
    const leads = tree(BACKEND_LEADS.id)?.candidates.filter((c) => c.verdict === 'untested').map((c) => c.name);
    expect(leads).toEqual(['vLLM CPU backend', 'IPEX-LLM', 'exo', '--backend vulkan']);
  });

  it('a fix told before the slowness does not put it right: the candidate that served is still rejected as too slow', () => {
    expect(names(FIXED_BUT_STILL_SLOW.id)).toEqual(['vllm/vllm-openai:v0.5.0 rejected']);
    expect(candidate(FIXED_BUT_STILL_SLOW.id, 'vllm/vllm-openai:v0.5.0')?.reason).toContain('too slow');
  });
});
