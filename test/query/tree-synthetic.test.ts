import { beforeAll, describe, expect, it } from 'vitest';
import { attemptTimings } from '../../src/query/timings.js';
import { loadTree } from '../../src/query/tree/queries.js';
import type { DecisionTree } from '../../src/query/tree/types.js';
import { whyCandidate } from '../../src/query/why.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { readStore } from './helpers/derived-store.js';
import { writeSynthetic, type SyntheticSession } from './helpers/synthetic-session.js';

/**
 * A story unlike the sample, to show the rules are not tuned to it: Mixtral on a 4×A100 box, an
 * image tag that does not exist (manifest unknown), a TGI version that runs out of memory at
 * load, a pip resolver conflict fixed by a venv, vLLM from pip serving in the end; a lead named in
 * passing and never tried. Different agent tool names (Claude's Bash/WebSearch), no ssh user tricks.
 */
const TGI = 'ghcr.io/huggingface/text-generation-inference';
const MIXTRAL: SyntheticSession = {
  id: 'syn-mixtral-node1',
  title: 'Mixtral on node1',
  steps: [
    { role: 'user', text: 'Please set up mistralai/Mixtral-8x7B-Instruct-v0.1 behind an OpenAI-compatible API on node1 (4×A100 40GB).' },
    {
      role: 'assistant', text: 'Checking the GPUs first.',
      calls: [{ command: "ssh ops@node1 'nvidia-smi --query-gpu=name,memory.total --format=csv,noheader'", output: 'NVIDIA A100-SXM4-40GB, 40960 MiB\n'.repeat(4) }],
    },
    {
      role: 'assistant', text: `TGI is the simplest path: pulling \`${TGI}:2.9.9\`.`,
      calls: [{ command: `ssh ops@node1 'docker pull ${TGI}:2.9.9'`, output: 'Error response from daemon: manifest unknown', exit: 1, durationMs: 2000 }],
    },
    {
      role: 'assistant', reasoning: 'Tag 2.9.9 does not exist (manifest unknown). The latest stable tag is 2.4.1.', text: `No such tag; trying \`${TGI}:2.4.1\`.`,
      calls: [{ command: `ssh ops@node1 'docker pull ${TGI}:2.4.1'`, output: `2.4.1: Pulling from huggingface/text-generation-inference\nStatus: Downloaded newer image for ${TGI}:2.4.1`, durationMs: 200_000 }],
    },
    {
      role: 'assistant', text: 'Starting TGI with 4 shards.',
      calls: [{
        command: `ssh ops@node1 'docker run --rm --gpus all --shm-size 1g -p 8080:80 -v /data:/data ${TGI}:2.4.1 --model-id mistralai/Mixtral-8x7B-Instruct-v0.1 --num-shard 4'`,
        output: '2026-03-20T10:05:00Z INFO text_generation_launcher: Starting shard rank=0\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB\nError: ShardCannotStart',
        exit: 1, durationMs: 95_000,
      }],
    },
    {
      role: 'assistant',
      reasoning: 'Mixtral in fp16 needs about 93 GB of weights; four 40 GB cards leave too little KV cache for TGI 2.4.1. vLLM with tensor parallel 4 and fp8 fits. Another option would be the official SGLang nightly image, but vLLM is what the team runs elsewhere.',
      text: 'TGI 2.4.1 runs out of memory at load: rejected. Switching to vLLM on the host.',
      calls: [
        { command: '', tool: 'WebSearch', input: { query: 'vllm 0.6.3 mixtral fp8 tensor parallel 4 A100' }, output: 'Links: […]' },
        { command: "ssh ops@node1 'pip install vllm==0.6.3'", output: 'ERROR: Cannot install vllm==0.6.3 because these package versions have conflicting dependencies.\n    vllm 0.6.3 depends on torch==2.4.0\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io/', exit: 1, durationMs: 30_000 },
      ],
    },
    {
      role: 'assistant', text: 'The system torch is pinned for other jobs; installing into a venv instead.',
      calls: [{ command: "ssh ops@node1 'python3 -m venv ~/vllm && ~/vllm/bin/pip install vllm==0.6.3'", output: 'Successfully installed torch-2.4.0 vllm-0.6.3', durationMs: 180_000 }],
    },
    {
      role: 'assistant', text: 'Launching the OpenAI server with tensor parallel 4 and fp8.',
      calls: [{ command: "ssh ops@node1 'nohup ~/vllm/bin/python -m vllm.entrypoints.openai.api_server --model mistralai/Mixtral-8x7B-Instruct-v0.1 --tensor-parallel-size 4 --quantization fp8 --port 8000 > vllm.log 2>&1 &'", output: '' }],
    },
    {
      role: 'assistant', text: 'Checking the model list.',
      calls: [{ command: "ssh ops@node1 'curl -s localhost:8000/v1/models'", output: '{"object":"list","data":[{"id":"mistralai/Mixtral-8x7B-Instruct-v0.1","object":"model"}]}' }],
    },
    { role: 'assistant', text: 'Mixtral is serving on node1:8000 through vLLM 0.6.3.' },
  ],
};

const db = tempDbPath(tempDir());
let tree: DecisionTree;

beforeAll(async () => {
  await writeSynthetic(db, MIXTRAL);
  tree = (await readStore(db, (store) => loadTree(store, MIXTRAL.id))) as DecisionTree;
});

describe('a synthetic session with another story', () => {
  it('finds the goal, the candidates and their verdicts', () => {
    expect(tree.goal).toMatch(/^Please set up mistralai\/Mixtral-8x7B-Instruct-v0\.1/);
    expect(tree.candidates.map((c) => [c.name, c.kind, c.verdict])).toEqual([
      [`${TGI}:2.9.9`, 'image', 'rejected'],
      [`${TGI}:2.4.1`, 'image', 'rejected'],
      ['vllm==0.6.3', 'framework', 'accepted'],
      ['official SGLang nightly', 'image', 'untested'],
    ]);
  });

  it('gives each rejection its deciding fact', () => {
    expect(tree.candidates[0]?.reason).toContain('manifest unknown');
    expect(tree.candidates[1]?.reason).toContain('CUDA out of memory');
    expect(tree.candidates[2]?.reason).toContain('model listed: mistralai/Mixtral-8x7B-Instruct-v0.1');
  });

  it('does not reject the framework for the pip conflict it recovered from', async () => {
    const [why] = await readStore(db, (store) => whyCandidate(store, 'vllm==0.6.3'));
    expect(why?.evidence.map((e) => [e.message_ordinal, e.kind, e.outcome])).toEqual([
      [6, 'install', 'failed'],
      [7, 'install', 'ok'],
      [8, 'serve', 'ok'],
      [9, 'health', 'ok'],
    ]);
  });

  it('pivots inside TGI versions, then between frameworks', () => {
    expect(tree.pivots.map((p) => [p.from, p.to, p.message_ordinal, p.scope])).toEqual([
      [`${TGI}:2.9.9`, `${TGI}:2.4.1`, 4, 'version'],
      [`${TGI}:2.4.1`, 'vllm==0.6.3', 6, 'framework'],
    ]);
    expect(tree.pivots[1]?.reason).toMatch(/vLLM/);
  });

  it('times the pulls per tag', async () => {
    const rows = await readStore(db, (store) => attemptTimings(store, { kind: 'pull' }));
    expect(rows.map((r) => [r.subject, r.attempt, r.outcome, r.host])).toEqual([
      [`${TGI}:2.9.9`, 1, 'failed', 'node1'],
      [`${TGI}:2.4.1`, 1, 'ok', 'node1'],
    ]);
  });
});
