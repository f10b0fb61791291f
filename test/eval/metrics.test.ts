// The eval scorer's pure part: name normalisation, LCS, and one session scored end to end on
// hand-made retrace output (no CLI involved).
import { describe, expect, it } from 'vitest';
import { Labels } from '../../eval/schema.js';
import { lcs, matchAttempts, normalizeName, scoreSession } from '../../eval/score/metrics.js';
import { substituteVariables } from '../../eval/score/retrace.js';

const labels = Labels.parse({
  goal_keywords: ['Qwen3', 'vLLM'],
  deploys: true,
  candidates: [
    { name: 'vllm/vllm-openai:v0.10.1', kind: 'image', verdict: 'rejected', reason_keywords: ['arm64'] },
    { name: 'nvcr.io/nvidia/vllm:25.10-py3', aliases: ['nvidia/vllm:25.10-py3'], kind: 'image', verdict: 'accepted', reason_keywords: ['200'] },
    { name: 'vLLM source build', kind: 'framework', verdict: 'untested' },
  ],
  pivots: [['vllm/vllm-openai:v0.10.1', 'nvcr.io/nvidia/vllm:25.10-py3']],
  attempts: [
    { kind: 'pull', subject: 'vllm/vllm-openai:v0.10.1', outcome: 'failed' },
    { kind: 'pull', subject: 'nvcr.io/nvidia/vllm:25.10-py3', outcome: 'ok' },
  ],
  plan: [
    { host: '10.0.0.2', must: ['docker pull', '25.10-py3'] },
    { host: '10.0.0.2', must: ['vllm serve'] },
  ],
});

describe('normalizeName', () => {
  it('ignores case, docker.io/ and library/ prefixes, :latest and spacing', () => {
    expect(normalizeName('docker.io/library/Python:latest')).toBe('python');
    expect(normalizeName('  `Foo/Bar:1.0`  ')).toBe('foo/bar:1.0');
    expect(normalizeName('TP=8  x PP=2')).toBe('tp=8 x pp=2');
    expect(normalizeName('foo:latest-rc')).toBe('foo:latest-rc');
  });
});

describe('lcs', () => {
  it('counts the longest common subsequence, order mattering', () => {
    expect(lcs([1, 2, 3, 4], [2, 4, 3], (a, b) => a === b)).toBe(2);
    expect(lcs([], [1], (a, b) => a === b)).toBe(0);
    expect(lcs(['a', 'b'], ['b', 'a'], (a, b) => a === b)).toBe(1);
  });
});

describe('scoreSession', () => {
  const tree = {
    session: 's', goal: 'serve Qwen3-30B with vLLM on the Spark',
    candidates: [
      { name: 'docker.io/vllm/vllm-openai:v0.10.1', verdict: 'rejected', reason: 'no linux/arm64 manifest' },
      { name: 'nvidia/vllm:25.10-py3', verdict: 'accepted', reason: 'health 200' },
      { name: 'vllm/vllm-openai:v0.10.1', verdict: 'rejected', reason: 'duplicate' },
      { name: 'python:3.11-slim', verdict: 'rejected', reason: 'noise' },
    ],
    pivots: [{ from: 'vllm/vllm-openai:v0.10.1', to: 'nvcr.io/nvidia/vllm:25.10-py3' }],
  };
  const timings = [
    { kind: 'pull', subject: 'vllm/vllm-openai:v0.10.1', host: '10.0.0.2', outcome: 'failed' },
    { kind: 'probe', subject: 'x', outcome: 'ok' },
    { kind: 'pull', subject: 'nvcr.io/nvidia/vllm:25.10-py3', host: '10.0.0.2', outcome: 'timeout' },
  ];
  const plan = {
    roles: { head: { recorded_address: '10.0.0.2', recorded_hostname: 'spark' } },
    steps: [
      { command: 'docker pull nvcr.io/nvidia/vllm:25.10-py3', roles: ['head'] },
      { command: 'nvidia-smi', roles: ['head'] },
      { command: 'docker run --gpus all img vllm serve m', roles: ['head'] },
    ],
  };

  it('scores candidates once each, by name or alias, with the right verdict', () => {
    const score = scoreSession(labels, tree, timings, plan);
    expect(score.candidates).toEqual({ reported: 4, labeled: 3, correct: 2, found: 2 });
    expect(score.candidatePrecision).toBe(0.5);
    expect(score.candidateRecall).toBeCloseTo(2 / 3);
    expect(score.missing).toEqual(['vLLM source build (untested)']);
  });

  it('checks reasons, goal words, pivots, attempts and plan steps', () => {
    const score = scoreSession(labels, tree, timings, plan);
    expect(score.reasons).toMatchObject({ checked: 3, ok: 2 });
    expect(score.goal.share).toBe(1);
    expect(score.pivots.share).toBe(1);
    expect(score.attempts).toMatchObject({ labeled: 2, reported: 2, matched: 1 });
    expect(score.plan).toMatchObject({ labeled: 2, produced: 3, matched: 2 });
    expect(score.plan.precision).toBeCloseTo(2 / 3);
  });

  it('refuses a plan step on the wrong host', () => {
    const elsewhere = { roles: { worker: { recorded_address: '10.0.0.9' } }, steps: plan.steps.map((step) => ({ ...step, roles: ['worker'] })) };
    expect(scoreSession(labels, tree, timings, elsewhere).plan.matched).toBe(0);
  });

  it('calls a non-deploying session clean only with no candidate and no plan', () => {
    const quiet = Labels.parse({ deploys: false, goal_keywords: ['tokens/s'] });
    const empty = { session: 's', goal: 'fix the tokens/s number', candidates: [], pivots: [] };
    expect(scoreSession(quiet, empty, [], null).clean).toBe(true);
    expect(scoreSession(quiet, { ...empty, candidates: [tree.candidates[3]!] }, [], null).clean).toBe(false);
    expect(scoreSession(quiet, empty, [], { steps: [{ command: 'x' }] }).clean).toBe(false);
    expect(scoreSession(quiet, empty, [], null).candidatePrecision).toBeNull();
  });
});

describe('substituteVariables', () => {
  it('puts a plan variable\'s value back into the commands that name it, and leaves secrets alone', () => {
    const plan = substituteVariables({
      variables: { image: { value: 'vllm/vllm-openai:v0.6.6' }, HF_TOKEN: { env: 'HF_TOKEN' } },
      steps: [{ command: 'docker pull {{ image }} && echo {{HF_TOKEN}} {{ missing }}', roles: ['head'] }],
    });
    expect(plan.steps[0]!.command).toBe('docker pull vllm/vllm-openai:v0.6.6 && echo {{HF_TOKEN}} {{ missing }}');
  });

  it('scores recorded shell steps only: file writes and steps the record never ran are left out', () => {
    const plan = substituteVariables({
      variables: {},
      steps: [
        { command: 'docker rm x', roles: ['head'], source: { call_id: null } },
        { command: "cat > a.yml <<'EOF'\nx\nEOF", roles: ['head'], file: { path: 'a.yml' }, source: { call_id: 'c1' } },
        { command: 'docker compose up -d', roles: ['head'], source: { call_id: 'c2' } },
        { command: 'curl localhost:8000/health', roles: ['head'] },
      ],
    });
    expect(plan.steps.map((step) => step.command)).toEqual(['docker compose up -d', 'curl localhost:8000/health']);
  });
});

describe('matchAttempts', () => {
  it('compares retries subject by subject, whatever order the groups come in', () => {
    const labeled = Labels.parse({
      deploys: true,
      none_accepted: true,
      attempts: [
        { kind: 'pull', subject: 'a:1', outcome: 'timeout' },
        { kind: 'pull', subject: 'a:1', outcome: 'ok' },
        { kind: 'download', subject: 'org/model', outcome: 'ok' },
      ],
    }).attempts;
    const rows = [
      { kind: 'download', subject: 'org/model', outcome: 'ok' },
      { kind: 'pull', subject: 'a:1', attempt: 1, outcome: 'timeout' },
      { kind: 'pull', subject: 'a:1', attempt: 2, outcome: 'ok' },
    ];
    expect(matchAttempts(labeled, rows)).toBe(3);
    expect(matchAttempts(labeled, [rows[2]!, rows[1]!])).toBe(1);
    expect(matchAttempts(labeled, [{ kind: 'pull', subject: 'org/model', outcome: 'ok' }])).toBe(0);
  });
});
