import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTree } from '../../src/query/tree/queries.js';
import type { DecisionTree } from '../../src/query/tree/types.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { ingestDerived, readStore } from './helpers/derived-store.js';

/**
 * The Claude Code and Codex fixtures (test/fixtures/README.md) through their real adapters: the
 * trees asserted here are the ones their expected.json states.
 */
const db = tempDbPath(tempDir());
const trees = new Map<string, DecisionTree>();

beforeAll(async () => {
  await ingestDerived(db, [join(REPO_ROOT, 'test/fixtures/claude'), join(REPO_ROOT, 'test/fixtures/codex')]);
  await readStore(db, async (store) => {
    for (const row of await store.all('SELECT id FROM sessions')) {
      const tree = await loadTree(store, String(row['id']));
      if (tree) trees.set(String(row['id']), tree);
    }
  });
});

function tree(id: string): DecisionTree {
  const found = trees.get(id);
  if (!found) throw new Error(`no tree for ${id}; have ${[...trees.keys()].join(', ')}`);
  return found;
}

function summary(t: DecisionTree): [string, string, string][] {
  return t.candidates.map((c) => [c.name, c.kind, c.verdict]);
}

describe('Claude Code A: gpt-oss-120b on one GB10 Spark', () => {
  const id = 'd96690bf-84e5-4021-84e4-48dbd0b8dfa3';

  it('rejects the amd64-only upstream image and the NGC build without sm_121 kernels, accepts 25.11', () => {
    expect(summary(tree(id))).toEqual([
      ['vllm/vllm-openai:v0.10.1', 'image', 'rejected'],
      ['nvcr.io/nvidia/vllm:25.09-py3', 'image', 'rejected'],
      ['nvcr.io/nvidia/vllm:25.11-py3', 'image', 'accepted'],
      ['nvcr.io/nvidia/vllm:25.10-py3', 'image', 'untested'],
      ['nvcr.io/nvidia/vllm:25.12-py3', 'image', 'untested'],
    ]);
    const [upstream, ngc2509, ngc2511, ngc2510] = tree(id).candidates;
    expect(upstream?.reason).toContain('no matching manifest for linux/arm64/v8');
    expect(upstream?.evidence.find((e) => e.decisive)?.call_id).toBe('toolu_01Lsa0DgPoDJN0H6URHbd6z6');
    expect(ngc2509?.reason).toContain('no kernel image is available for execution on the device');
    expect(ngc2509?.reason).toContain('sm_121');
    expect(ngc2509?.evidence.find((e) => e.decisive)?.call_id).toBe('toolu_011IqtLk5Svexb51CHQj0Tls');
    expect(ngc2511?.reason).toContain('health 200');
    expect(ngc2511?.evidence.map((e) => e.call_id)).toContain('toolu_01ChctJdMZC326ogupOdt20g');
    // Named only in the Task subagent's report, with its remark.
    expect(ngc2510?.reason).toContain('no sm_121 claim');
  });

  it('pivots from upstream to NGC, then inside the NGC versions', () => {
    expect(tree(id).pivots.map((p) => [p.from, p.to, p.scope])).toEqual([
      ['vllm/vllm-openai:v0.10.1', 'nvcr.io/nvidia/vllm:25.09-py3', 'image'],
      ['nvcr.io/nvidia/vllm:25.09-py3', 'nvcr.io/nvidia/vllm:25.11-py3', 'version'],
    ]);
    expect(tree(id).pivots[1]?.reason).toContain('25.11');
  });

  it('the subagent has no candidates of its own', () => {
    expect(tree(`${id}:a1fa2b2b182f4b48c`).candidates).toEqual([]);
  });
});

describe('Claude Code B: research only', () => {
  it('names two images, tries neither', () => {
    const t = tree('9572fbe8-2f61-4b6b-98a6-d20b6e222bae');
    expect(summary(t)).toEqual([
      ['vllm/vllm-openai:v0.10.1', 'image', 'untested'],
      ['nvcr.io/nvidia/vllm:25.09-py3', 'image', 'untested'],
    ]);
    expect(t.candidates[0]?.reason).toContain('amd64 only');
    expect(t.pivots).toEqual([]);
    expect(tree('9572fbe8-2f61-4b6b-98a6-d20b6e222bae:f8043c8c').candidates).toEqual([]);
  });
});

describe('Codex C: Llama-3.3-70B on two 8×H100 hosts', () => {
  const id = '019cdc2c-b578-75be-8b9e-001e204112ed';

  it('takes the goal from the user, not from AGENTS.md or the environment context', () => {
    expect(tree(id).goal).toMatch(/^serve meta-llama\/Llama-3\.3-70B-Instruct behind an OpenAI-compatible endpoint/);
  });

  it('rejects TensorRT-LLM on a pip resolver conflict and SGLang --tp 8 on OOM; accepts the image and --tp 16', () => {
    expect(summary(tree(id))).toEqual([
      ['tensorrt_llm==0.17.0', 'framework', 'rejected'],
      ['lmsysorg/sglang:v0.4.9', 'image', 'accepted'],
      ['--tp 8', 'approach', 'rejected'],
      ['--tp 16 --nnodes 2', 'approach', 'accepted'],
    ]);
    const [trt, , tp8, tp16] = tree(id).candidates;
    expect(trt?.reason).toContain('ResolutionImpossible');
    expect(trt?.reason).toContain('depends on torch==2.5.1');
    expect(trt?.evidence.map((e) => e.call_id)).toEqual(['call_QijVdLEfPITlFaX7fGKeuO2w']);
    expect(tp8?.reason).toContain('torch.OutOfMemoryError: CUDA out of memory');
    expect(tp8?.evidence.map((e) => e.call_id)).toEqual(['call_8RKKYknH2GWwUr2Z4POfsuM2']);
    expect(tp16?.reason).toContain('completion answered "ok"');
    expect(tp16?.evidence.map((e) => e.call_id)).toContain('call_QGCcmO3T7stGeM9YDCDFcxZk');
  });

  it('pivots between frameworks, then inside SGLang; the timed-out pull is a retry, not a pivot', () => {
    expect(tree(id).pivots.map((p) => [p.from, p.to, p.scope])).toEqual([
      ['tensorrt_llm==0.17.0', 'lmsysorg/sglang:v0.4.9', 'framework'],
      ['--tp 8', '--tp 16 --nnodes 2', 'approach'],
    ]);
    expect(tree(id).pivots[0]?.reason).toContain('SGLang');
    expect(tree(id).pivots[1]?.reason).toContain('--tp 16');
  });

  it('the helper thread has no candidates', () => {
    expect(tree('019cdc47-3b0f-72ff-ae00-524767c862ca').candidates).toEqual([]);
  });
});

describe('Codex D and E', () => {
  it('D: the host vLLM install (no version read) is named vLLM and rejected because pip show finds nothing', () => {
    const t = tree('109f3f13-322e-4df5-93ed-6c95893ae1b0');
    expect(summary(t)).toEqual([['vLLM', 'framework', 'rejected']]);
    expect(t.candidates[0]?.reason).toContain('not installed: vllm');
    expect(t.candidates[0]?.evidence.map((e) => e.call_id)).toEqual(['call_tHJRcMvrOfNFDqr2u16fayG6']);
  });

  it('E: a health check of a running endpoint names no candidate', () => {
    const t = tree('019ce114-a1f2-7011-ada0-35d9c733931e');
    expect(t.candidates).toEqual([]);
    expect(t.goal).toBe('Is the Llama endpoint on gpu-a still healthy?');
  });
});
