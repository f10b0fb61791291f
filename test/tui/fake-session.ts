import type { RunRow, RunStepRow, SessionRow, TimelineRow, TimingRow, TreeView, WhyView } from '../../src/tui/services.js';

/**
 * Messages 12–18 of the bundled sample, as the TUI's services hand them over: enough for every
 * screen to show what a user sees there (the timed-out pull, the parallel group, the scitrera
 * probe and its verdict). Values are the sample's (sessions/README.md).
 */
export const SESSION_ID = 'ses_365d176c7ffeX5TaQTV86dNCf0';
export const SESSION_TITLE = 'Deploy Qwen3.5-122B-A10B-FP8 on dual DGX Spark';

export const SESSIONS: SessionRow[] = [
  {
    id: SESSION_ID, agent: 'opencode', title: SESSION_TITLE, started_at: '2026-02-26T13:41:07.000Z', ended_at: '2026-02-26T14:52:48.052Z',
    messages: 42, tool_calls: 45, candidates: 5, parent_id: null,
  },
  {
    id: 'agent-f8043c8c', agent: 'claude', title: 'Check the GB10 image tags', started_at: '2026-02-27T09:12:00.000Z', ended_at: '2026-02-27T09:15:30.000Z',
    messages: 12, tool_calls: 6, candidates: null, parent_id: '9572fbe8',
  },
];

type Call = Extract<TimelineRow, { kind: 'call' }>;

function message(ordinal: number, role: string, time: string, preview: string, calls: number, reasoning = ''): Omit<Extract<TimelineRow, { kind: 'message' }>, 'index'> {
  return { kind: 'message', ordinal, role, created_at: `2026-02-26T${time}.000Z`, preview, reasoning_preview: reasoning, calls, error: null };
}

function call(ordinal: number, callId: string, summary: string, durationMs: number, extra: Partial<Call> = {}): Omit<Call, 'index'> {
  return {
    kind: 'call', ordinal, call_id: callId, tool: 'bash', summary, started_at: '2026-02-26T13:43:30.136Z', duration_ms: durationMs, exit_code: 0,
    timed_out: false, failed: false, truncated: false, parallel_group: null, parallel_position: null, output_lines: 3, ...extra,
  };
}

const GROUP_13 = 'toolu_01Zn7wQ3erU9Be7Eg6t6rEvY';

export const TIMELINE: TimelineRow[] = [
  message(12, 'assistant', '13:43:12', 'No containers left on the head. Checking that the GPU memory is actually free.', 1),
  call(12, 'call-smi', '10.1.230.180: nvidia-smi', 1247, { output_lines: 20 }),
  message(13, 'assistant', '13:43:17', 'Head GPU is clear (44 MiB, display only). In parallel: searching for a Spark image with Qwen3.5 support, pulling the SGLang Spark image.', 3),
  call(13, GROUP_13, '{"query":"SGLang Docker image DGX Spark Qwen3.5"}', 4806, { tool: 'exa_web_search_exa', exit_code: null, parallel_group: GROUP_13, parallel_position: 'first' }),
  call(13, 'call-pull-1', '10.1.230.180: docker pull lmsysorg/sglang:spark 2>&1 | tail -3', 120314, {
    exit_code: null, timed_out: true, parallel_group: GROUP_13, parallel_position: 'middle', output_lines: 5,
  }),
  call(13, 'call-env', '10.1.230.180: which huggingface-cli || echo "no huggingface-cli"; df -h /', 1318, { parallel_group: GROUP_13, parallel_position: 'last' }),
  message(14, 'assistant', '13:45:31', 'The docker pull timed out (large image). Let me continue in the background and read the forum thread.', 2),
  call(14, 'call-pull-2', '10.1.230.180: docker pull lmsysorg/sglang:spark 2>&1 | tail -3', 251627),
  message(15, 'assistant', '13:49:48', '`lmsysorg/sglang:spark` is pulled. Probing it for Qwen3.5 support.', 1),
  call(15, 'call-probe-lmsys', '10.1.230.180: docker run --rm lmsysorg/sglang:spark python3 -c "import sglang…"', 11408),
  message(16, 'assistant', '13:50:05', '`lmsysorg/sglang:spark` is too old for Qwen3.5: SGLang 0.5.4, transformers 4.57.1. Rejected.', 1,
    'The scitrera/dgx-spark-sglang:0.5.10rc0 is much newer (SGLang 0.5.10rc0, 6 days old). Let me try that.'),
  call(16, 'call-pull-scitrera', '10.1.230.180: docker pull scitrera/dgx-spark-sglang:0.5.10rc0', 283054),
  message(17, 'assistant', '13:55:10', 'Pulled. Running the same probe against `scitrera/dgx-spark-sglang:0.5.10rc0`.', 1),
  call(17, 'call-probe-scitrera', '10.1.230.180: docker run --rm scitrera/dgx-spark-sglang:0.5.10rc0 python3 -c "…"', 13276, { output_lines: 41 }),
  message(18, 'assistant', '13:55:29', '`scitrera/dgx-spark-sglang:0.5.10rc0` is a dead end too: transformers 4.57.6, Qwen3.5 needs ≥ 5.x.', 0),
].map((row, index) => ({ ...row, index }) as TimelineRow);

export const OUTPUTS: Record<string, string[]> = {
  'call-pull-1': ['', '', '<bash_metadata>', 'bash tool terminated command after exceeding timeout 120000 ms', '</bash_metadata>'],
  'call-probe-scitrera': [
    '', '=============', '== PyTorch ==', '=============', '', 'NVIDIA Release 26.02 (build 269443100)', 'PyTorch Version 2.11.0a0+eb65b36',
    ...Array.from({ length: 27 }, (_, i) => `banner line ${i + 1}`),
    'SGLang: 0.0.0', 'PyTorch: 2.11.0a0+eb65b36 CUDA: 13.0', 'Triton: 3.6.0', 'Transformers: 4.57.6',
    "Qwen3.5 MoE: NOT FOUND - No module named 'sglang.srt.models.qwen3_5_moe'", "Qwen3.5 MTP: NOT FOUND - No module named 'sglang.srt.models.qwen3_5_moe_nextn'", '',
  ],
};

export const TREE: TreeView = {
  session: SESSION_ID,
  goal: 'deploy Qwen/Qwen3.5-122B-A10B-FP8 across both DGX Sparks, two-node tensor parallel',
  candidates: [
    { name: 'vllm-spark:v0.14.0rc2.dev262', kind: 'image', verdict: 'rejected', reason: 'no Qwen3_5MoeForConditionalGeneration in the model registry', evidence: [{ message_ordinal: 5, call_id: 'call-probe-vllm' }] },
    { name: 'lmsysorg/sglang:spark', kind: 'image', verdict: 'rejected', reason: 'SGLang 0.5.4, transformers 4.57.1: too old', evidence: [{ message_ordinal: 15, call_id: 'call-probe-lmsys' }] },
    { name: 'scitrera/dgx-spark-sglang:0.5.10rc0', kind: 'image', verdict: 'rejected', reason: 'transformers 4.57.6 (Qwen3.5 needs ≥ 5.x); both Qwen3.5 imports fail', evidence: [{ message_ordinal: 17, call_id: 'call-probe-scitrera' }] },
    { name: 'hellohal2064/vllm-qwen3.5-gb10', kind: 'image', verdict: 'accepted', reason: 'vLLM 0.17.0rc1.dev58, transformers 5.2.0: SUPPORTED; serves on both Sparks', evidence: [{ message_ordinal: 21, call_id: 'call-probe-hellohal' }] },
    { name: 'lmsysorg/sglang:dev-cu13', kind: 'image', verdict: 'untested', reason: 'named as a lead, never pulled', evidence: [] },
  ],
  pivots: [
    { from: 'vllm-spark:v0.14.0rc2.dev262', to: 'lmsysorg/sglang:spark', message_ordinal: 13, reason: 'the running vLLM cannot load the architecture' },
    { from: 'lmsysorg/sglang:spark', to: 'scitrera/dgx-spark-sglang:0.5.10rc0', message_ordinal: 16, reason: 'much newer SGLang' },
    { from: 'scitrera/dgx-spark-sglang:0.5.10rc0', to: 'hellohal2064/vllm-qwen3.5-gb10', message_ordinal: 18, reason: 'a vLLM image built for Qwen3.5 on GB10' },
  ],
};

export const WHY_SCITRERA: WhyView = {
  candidate: 'scitrera/dgx-spark-sglang:0.5.10rc0',
  verdict: 'rejected',
  reason: 'transformers 4.57.6 (Qwen3.5 needs ≥ 5.x); both Qwen3.5 imports fail',
  evidence: [
    {
      message_ordinal: 17, call_id: 'call-probe-scitrera',
      command: 'ssh aurora@10.1.230.180 \'docker run --rm scitrera/dgx-spark-sglang:0.5.10rc0 python3 -c "import sglang; …"\'',
      decisive_lines: ['Transformers: 4.57.6', "Qwen3.5 MoE: NOT FOUND - No module named 'sglang.srt.models.qwen3_5_moe'"],
    },
  ],
  reasoning: [{ message_ordinal: 18, text: 'SGLang 0.0.0 means an editable install without version metadata; transformers 4.57.6 predates Qwen3.5, which needs 5.x.' }],
};

export const TIMINGS: TimingRow[] = [
  { kind: 'pull', subject: 'lmsysorg/sglang:spark', host: '10.1.230.180', attempt: 1, started_at: '2026-02-26T13:43:30Z', duration_ms: 120314, outcome: 'timeout', message_ordinal: 13, call_id: 'call-pull-1' },
  { kind: 'pull', subject: 'lmsysorg/sglang:spark', host: '10.1.230.180', attempt: 2, started_at: '2026-02-26T13:45:35Z', duration_ms: 251627, outcome: 'ok', message_ordinal: 14, call_id: 'call-pull-2' },
  { kind: 'pull', subject: 'scitrera/dgx-spark-sglang:0.5.10rc0', host: '10.1.230.180', attempt: 1, started_at: '2026-02-26T13:50:20Z', duration_ms: 283054, outcome: 'ok', message_ordinal: 16 },
  { kind: 'download', subject: 'Qwen/Qwen3.5-122B-A10B-FP8', host: '10.1.230.180', attempt: 1, started_at: '2026-02-26T14:08:00Z', duration_ms: 1797418, outcome: 'ok', bytes: 119e9, mb_per_s: 66.2, message_ordinal: 24 },
  { kind: 'probe', subject: 'scitrera/dgx-spark-sglang:0.5.10rc0', host: '10.1.230.180', attempt: 1, started_at: '2026-02-26T13:55:16Z', duration_ms: 13276, outcome: 'negative', message_ordinal: 17, call_id: 'call-probe-scitrera' },
];

export const RUNS: RunRow[] = [
  { id: 'run_20260301_0930', session_id: SESSION_ID, plan: 'qwen35-plan.yaml', mode: 'live', status: 'ok', started_at: '2026-03-01T09:30:00Z', ended_at: '2026-03-01T10:41:00Z', steps: 4, diverged: 1 },
  { id: 'run_20260228_1700', session_id: SESSION_ID, plan: 'qwen35-plan.yaml', mode: 'dry', status: 'ok', started_at: '2026-02-28T17:00:00Z', ended_at: '2026-02-28T17:00:01Z', steps: 4, diverged: 0 },
];

function step(ordinal: number, stepId: string, command: string, status: string, verdict: string | null, extra: Partial<RunStepRow> = {}): RunStepRow {
  return {
    step_id: stepId, ordinal, role: 'head', host: 'aurora@127.0.0.2:2222', command, status, exit_code: 0, duration_ms: 1000, verdict, detail: null,
    recorded: { exit_code: 0, duration_ms: 1200, output_excerpt: 'ok' }, ...extra,
  };
}

export const RUN_STEPS: RunStepRow[] = [
  step(1, 'stop-glm', 'sudo systemctl stop vllm-cluster vllm-proxy', 'ok', 'same'),
  step(2, 'pull-image', 'docker pull hellohal2064/vllm-qwen3.5-gb10', 'ok', 'same', { duration_ms: 301000, recorded: { exit_code: 0, duration_ms: 457310, output_excerpt: 'Status: Downloaded newer image' } }),
  step(3, 'probe-image', 'docker run --rm hellohal2064/vllm-qwen3.5-gb10 python3 -c "…"', 'ok', 'diverged', {
    detail: 'transformers 5.3.0 where the record had 5.2.0',
    output: 'vLLM 0.17.0rc1.dev58\ntransformers 5.3.0\nflash-attn 2.8.1\nSUPPORTED\n',
    recorded: { call_id: 'call_probe_01', exit_code: 0, duration_ms: 14927, output_excerpt: 'vLLM 0.17.0rc1.dev58\ntransformers 5.2.0\nSUPPORTED', output: 'vLLM 0.17.0rc1.dev58\ntransformers 5.2.0\nSUPPORTED\n' },
  }),
  step(4, 'health', 'curl -s -o /dev/null -w "%{http_code}" localhost:8000/health', 'failed', 'unknown', { exit_code: 7, detail: 'connection refused' }),
];
