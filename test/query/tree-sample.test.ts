import { beforeAll, describe, expect, it } from 'vitest';
import { resolveSession } from '../../src/query/session-queries.js';
import { attemptTimings } from '../../src/query/timings.js';
import { loadTree, treeJson } from '../../src/query/tree/queries.js';
import type { DecisionTree } from '../../src/query/tree/types.js';
import { whyCandidate, type WhyAnswer } from '../../src/query/why.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { ingestDerived, readStore } from './helpers/derived-store.js';

/**
 * The bundled sample (issue 4, done when): file ordinal N is seed message 6555+N, so #5 = msg 6560,
 * #13 = 6568, #14 = 6569, #15 = 6570, #16 = 6571, #17 = 6572, #18 = 6573.
 */
const db = tempDbPath(tempDir());
let tree: DecisionTree;
let sessionId: string;

beforeAll(async () => {
  await ingestDerived(db, [SESSIONS_DIR]);
  await readStore(db, async (store) => {
    sessionId = (await resolveSession(store, 'qwen')).id;
    const loaded = await loadTree(store, sessionId);
    if (!loaded) throw new Error('no tree stored for the sample');
    tree = loaded;
  });
});

function candidate(name: string): DecisionTree['candidates'][number] {
  const found = tree.candidates.find((c) => c.name === name);
  if (!found) throw new Error(`no candidate ${name} in ${tree.candidates.map((c) => c.name).join(', ')}`);
  return found;
}

describe('the sample tree (what the seeds say)', () => {
  it('takes the goal from the first user message', () => {
    expect(tree.goal_ordinal).toBe(1);
    expect(tree.goal).toMatch(/^deploy Qwen\/Qwen3\.5-122B-A10B-FP8 across both DGX Sparks/);
  });

  it('has the tried candidates in order with their verdicts, then the untested leads', () => {
    expect(tree.candidates.map((c) => [c.name, c.kind, c.verdict])).toEqual([
      ['vllm-spark:v0.14.0rc2.dev262', 'image', 'rejected'],
      ['lmsysorg/sglang:spark', 'image', 'rejected'],
      ['scitrera/dgx-spark-sglang:0.5.10rc0', 'image', 'rejected'],
      ['hellohal2064/vllm-qwen3.5-gb10', 'image', 'accepted'],
      ['ridanuae/dgx-spark-sglang-qwen35', 'framework', 'untested'],
      ['lmsysorg/sglang:dev-cu13', 'image', 'untested'],
      ['NGC vLLM nightly', 'image', 'untested'],
    ]);
  });

  it('rejects the running vLLM image (msg 6560) because Qwen3_5Moe is not in its registry', () => {
    const running = candidate('vllm-spark:v0.14.0rc2.dev262');
    expect(running.reason).toContain('vLLM 0.14.0rc2.dev262');
    expect(running.reason).toContain('Qwen3_5MoeForConditionalGeneration not in the model registry');
    expect(running.reason).toContain('vllm.model_executor.models.qwen3_5_moe');
    expect(running.evidence.map((e) => [e.message_ordinal, e.decisive])).toEqual([[5, true]]);
    expect(running.followup?.message_ordinal).toBe(7);
  });

  it('rejects lmsysorg/sglang:spark for SGLang 0.5.4 and transformers 4.57, after a timed-out pull and its retry', () => {
    const spark = candidate('lmsysorg/sglang:spark');
    expect(spark.reason).toMatch(/SGLang 0\.5\.4, transformers 4\.57/);
    expect(spark.reason).toContain('sglang.srt.models.qwen3_5_moe');
    expect(spark.evidence.map((e) => [e.message_ordinal, e.kind, e.outcome])).toEqual([
      [13, 'pull', 'timeout'],
      [14, 'pull', 'ok'],
      [15, 'probe', 'negative'],
    ]);
  });

  it('rejects scitrera/dgx-spark-sglang:0.5.10rc0 for SGLang 0.0.0, transformers 4.57.6 and the failed Qwen3.5 imports', () => {
    const scitrera = candidate('scitrera/dgx-spark-sglang:0.5.10rc0');
    expect(scitrera.reason).toContain('SGLang 0.0.0');
    expect(scitrera.reason).toContain('transformers 4.57.6');
    expect(scitrera.reason).toMatch(/imports fail: sglang\.srt\.models\.qwen3_5_moe, sglang\.srt\.models\.qwen3_5_moe_nextn/);
    expect(scitrera.reason).toContain('needs ≥ 5.x');
    expect(scitrera.evidence.filter((e) => e.decisive).map((e) => e.message_ordinal)).toEqual([17]);
  });

  it('accepts hellohal2064/vllm-qwen3.5-gb10: health 200, the model listed, a completion answered', () => {
    const hellohal = candidate('hellohal2064/vllm-qwen3.5-gb10');
    expect(hellohal.reason).toContain('health 200');
    expect(hellohal.reason).toContain('model listed: Qwen/Qwen3.5-122B-A10B-FP8');
    expect(hellohal.reason).toContain('completion answered');
    expect(hellohal.evidence.filter((e) => e.decisive).map((e) => e.message_ordinal)).toEqual(expect.arrayContaining([34, 36, 37]));
  });

  it('keeps lmsysorg/sglang:dev-cu13 and the NGC vLLM nightly as untested leads named at msgs 6569 and 6573', () => {
    for (const name of ['lmsysorg/sglang:dev-cu13', 'NGC vLLM nightly']) {
      const lead = candidate(name);
      expect(lead.evidence).toEqual([]);
      expect(lead.mentions).toEqual(expect.arrayContaining([14, 18]));
    }
    expect(candidate('NGC vLLM nightly').reason).toContain('none published yet');
  });

  it('links the candidates with pivots in order, at msgs 6568, 6571 and 6573, with the stated reasons', () => {
    expect(tree.pivots.map((p) => [p.from, p.to, p.message_ordinal, p.scope])).toEqual([
      ['vllm-spark:v0.14.0rc2.dev262', 'lmsysorg/sglang:spark', 13, 'framework'],
      ['lmsysorg/sglang:spark', 'scitrera/dgx-spark-sglang:0.5.10rc0', 16, 'image'],
      ['scitrera/dgx-spark-sglang:0.5.10rc0', 'hellohal2064/vllm-qwen3.5-gb10', 18, 'framework'],
    ]);
    expect(tree.pivots[0]?.reason).toContain('vLLM 0.14 cannot load Qwen3.5');
    expect(tree.pivots[1]?.reason).toContain('much newer (SGLang 0.5.10rc0, 6 days old)');
    expect(tree.pivots[2]?.reason).toContain('hellohal2064/vllm-qwen3.5-gb10');
  });

  it('prints exactly the contract JSON shape', () => {
    const json = treeJson(tree);
    expect(Object.keys(json)).toEqual(['session', 'goal', 'candidates', 'pivots']);
    expect(Object.keys(json.candidates[0] ?? {})).toEqual(['name', 'kind', 'verdict', 'reason', 'evidence']);
    expect(Object.keys(json.candidates[0]?.evidence[0] ?? {})).toEqual(['message_ordinal', 'call_id']);
    expect(Object.keys(json.pivots[0] ?? {})).toEqual(['from', 'to', 'message_ordinal', 'reason']);
  });
});

describe('why scitrera', () => {
  let answers: WhyAnswer[];
  beforeAll(async () => {
    answers = await readStore(db, (store) => whyCandidate(store, 'scitrera'));
  });

  it('names transformers 4.57.6 and the failed imports, with the message ordinals', () => {
    expect(answers).toHaveLength(1);
    const [answer] = answers;
    expect(answer?.verdict).toBe('rejected');
    const probe = answer?.evidence.find((e) => e.kind === 'probe');
    expect(probe).toMatchObject({ message_ordinal: 17, outcome: 'negative', decisive: true, host: 'aurora@10.1.230.180' });
    expect(probe?.command).toContain('docker run --rm scitrera/dgx-spark-sglang:0.5.10rc0 python3 -c');
    expect(probe?.lines).toEqual(expect.arrayContaining([
      'Transformers: 4.57.6',
      'SGLang: 0.0.0',
      "Qwen3.5 MoE: NOT FOUND - No module named 'sglang.srt.models.qwen3_5_moe'",
      "Qwen3.5 MTP: NOT FOUND - No module named 'sglang.srt.models.qwen3_5_moe_nextn'",
    ]));
    expect(answer?.evidence.map((e) => e.message_ordinal)).toEqual([16, 17]);
    expect(answer?.followup?.message_ordinal).toBe(18);
    expect(answer?.followup?.text).toContain('transformers 4.57.6 is below the 5.x that Qwen3.5 needs');
  });
});

describe('timings', () => {
  it('shows the first pull of lmsysorg/sglang:spark timing out at ~120 s and the retry succeeding', async () => {
    const rows = await readStore(db, (store) => attemptTimings(store, { kind: 'pull', sessionId }));
    const spark = rows.filter((r) => r.subject === 'lmsysorg/sglang:spark');
    expect(spark.map((r) => [r.attempt, r.outcome, r.host])).toEqual([
      [1, 'timeout', '10.1.230.180'],
      [2, 'ok', '10.1.230.180'],
    ]);
    expect(spark[0]?.duration_ms).toBeGreaterThanOrEqual(119_000);
    expect(spark[0]?.duration_ms).toBeLessThan(125_000);
    // Retries sit right after their first attempt.
    expect(rows.findIndex((r) => r.subject === 'lmsysorg/sglang:spark' && r.attempt === 2)).toBe(rows.findIndex((r) => r.subject === 'lmsysorg/sglang:spark') + 1);
  });

  it('times the 119 GB download on both nodes, with throughput', async () => {
    const rows = await readStore(db, (store) => attemptTimings(store, { kind: 'download', sessionId }));
    const model = rows.filter((r) => r.subject === 'Qwen/Qwen3.5-122B-A10B-FP8' && r.duration_ms !== null && r.duration_ms > 60_000);
    expect(model.map((r) => r.host).sort()).toEqual(['10.1.230.180', '10.1.230.181']);
    for (const row of model) {
      expect(row.outcome).toBe('ok');
      expect(row.bytes).toBe(119 * 1024 ** 3);
      expect(row.mb_per_s).toBeGreaterThan(50);
    }
  });

  it('shows what each probe answered: the rejected candidates negative, the accepted one positive', async () => {
    const rows = await readStore(db, (store) => attemptTimings(store, { kind: 'probe', sessionId }));
    expect(rows.map((r) => [r.subject, r.outcome])).toEqual(expect.arrayContaining([
      ['lmsysorg/sglang:spark', 'negative'],
      ['scitrera/dgx-spark-sglang:0.5.10rc0', 'negative'],
      ['hellohal2064/vllm-qwen3.5-gb10', 'positive'],
    ]));
    expect(rows.some((r) => r.outcome === 'ok' && r.subject === 'scitrera/dgx-spark-sglang:0.5.10rc0')).toBe(false);
  });
});
