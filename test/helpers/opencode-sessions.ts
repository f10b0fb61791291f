/**
 * Realistic opencode sessions for database tests, shaped as opencode writes them (see
 * docs/formats/opencode.md): a native 2.x session of the founding case (a model served on a DGX
 * Spark), a 1.x session the 2.x importer carried over (bash renamed shell, as the importer does),
 * and a 1.17 session written by 1.x after the import. Hosts are data: nothing connects to them.
 */
import { createOpencodeDb, insertV1Session, insertV2Session, markImported, opencodeId, type DbSession, type V1Message, type V2Message } from './opencode-db.js';

export const T0 = Date.UTC(2026, 8, 21, 9, 14, 3);
const MODEL = { id: 'claude-sonnet-4-5', providerID: 'anthropic', variant: 'default' };
const id = (prefix: string, offset: number, n = 0): string => opencodeId(prefix, T0 + offset, n);
const usage = (input: number, output: number) => ({ input, output, reasoning: 0, cache: { read: input * 3, write: 512 } });

interface ShellRun {
  call: string;
  command: string;
  output: string;
  exit?: number;
  timeoutMs?: number;
  at: [created: number, ran: number, completed: number];
}

/** A 2.x shell tool item: the output and ShellResult's notice as content, the outcome in metadata. */
function shellTool(run: ShellRun): Record<string, unknown> {
  const timedOut = run.timeoutMs !== undefined;
  const output = timedOut
    ? `${run.output}\n\nCommand exceeded timeout of ${run.timeoutMs} ms. Retry with a larger timeout if the command is expected to take longer.`
    : run.output;
  const notice = timedOut ? 'Command timed out before completion.' : `Command exited with code ${run.exit ?? 'unknown'}.`;
  const outcome = { truncated: false, ...(run.exit !== undefined ? { exit: run.exit } : {}), ...(timedOut ? { timeout: true } : {}) };
  return {
    type: 'tool',
    id: run.call,
    name: 'shell',
    provider: { executed: false },
    state: {
      status: 'completed',
      input: { command: run.command, description: run.command.split(' ')[0], ...(run.timeoutMs ? { timeout: run.timeoutMs } : {}) },
      content: [...(output ? [{ type: 'text', text: output }] : []), { type: 'text', text: notice }],
      structured: { ...outcome, output, status: 'completed' },
      metadata: { status: 'completed', ...outcome },
    },
    time: { created: T0 + run.at[0], ran: T0 + run.at[1], completed: T0 + run.at[2] },
  };
}

export const NATIVE: { session: DbSession; messages: V2Message[] } = {
  session: {
    id: 'ses_2b7f0c9e1ffeQ4hV8nKd2LmZsX', title: 'Serve Qwen3-30B-A3B on spark-1', version: '2.0.12',
    directory: '/home/ops/spark-deploy', created: T0, updated: T0 + 400_000, agent: 'build', model: MODEL,
  },
  messages: [
    { id: id('msg', 0), type: 'user', data: { text: 'Serve Qwen/Qwen3-30B-A3B-Instruct-2507 with vLLM on the DGX Spark spark-1, OpenAI API on port 8000.', time: { created: T0 } } },
    {
      id: id('msg', 2_000), type: 'assistant',
      data: {
        agent: 'build', model: MODEL, finish: 'tool-calls', cost: 0.0121, tokens: usage(5210, 310),
        snapshot: { start: '4b825dc642cb6eb9a060e54bf8d69288fbee4904' },
        content: [
          { type: 'reasoning', id: 'rs_1', text: 'Check the GPU and whether the upstream image has an arm64 build.' },
          { type: 'text', id: 'tx_1', text: 'Let me look at the machine first.' },
          shellTool({ call: 'toolu_01GpuQuery', command: 'nvidia-smi --query-gpu=name,memory.total --format=csv', output: 'name, memory.total [MiB]\nNVIDIA GB10, 122880 MiB', exit: 0, at: [3_000, 3_100, 3_900] }),
          shellTool({ call: 'toolu_01PullUpstream', command: 'docker pull vllm/vllm-openai:v0.11.0', output: 'v0.11.0: Pulling from vllm/vllm-openai\nno matching manifest for linux/arm64/v8 in the manifest list entries', exit: 1, at: [5_000, 5_200, 20_000] }),
        ],
        time: { created: T0 + 2_000, completed: T0 + 21_000 },
      },
    },
    {
      id: id('msg', 22_000), type: 'assistant',
      data: {
        agent: 'build', model: MODEL, finish: 'tool-calls', cost: 0.0094, tokens: usage(6120, 240),
        content: [
          { type: 'text', id: 'tx_2', text: "The upstream image is amd64-only; NVIDIA's build has arm64." },
          shellTool({ call: 'toolu_01RunNvcr', command: 'docker run --gpus all -p 8000:8000 nvcr.io/nvidia/vllm:25.09-py3 vllm serve Qwen/Qwen3-30B-A3B-Instruct-2507', output: 'INFO Loading safetensors checkpoint shards: 12% Completed | 2/16', timeoutMs: 120_000, at: [23_000, 23_500, 143_600] }),
          {
            type: 'tool', id: 'toolu_01ReadDaemon', name: 'read',
            state: { status: 'completed', input: { path: '/etc/docker/daemon.json' }, content: [{ type: 'text', text: '{\n  "default-runtime": "nvidia"\n}' }], structured: {}, metadata: { truncated: false } },
            time: { created: T0 + 144_000, ran: T0 + 144_100, completed: T0 + 144_300 },
          },
        ],
        time: { created: T0 + 22_000, completed: T0 + 145_000 },
      },
    },
    { id: id('msg', 150_000), type: 'synthetic', data: { sessionID: 'ses_2b7f0c9e1ffeQ4hV8nKd2LmZsX', text: 'The user interrupted the previous step and ran a command.', time: { created: T0 + 150_000 } } },
    { id: id('msg', 151_000), type: 'shell', data: { callID: 'shl_01UserPs', command: 'docker ps --format "{{.Names}}"', output: 'vllm\n\nCommand exited with code 0.', time: { created: T0 + 151_000, completed: T0 + 151_800 } } },
    {
      id: id('msg', 160_000), type: 'assistant',
      data: {
        agent: 'build', model: MODEL, finish: 'stop', cost: 0.0071, tokens: usage(7040, 120),
        content: [
          shellTool({ call: 'toolu_01Health', command: 'curl -s localhost:8000/health', output: '', exit: 0, at: [161_000, 161_200, 161_700] }),
          {
            type: 'tool', id: 'toolu_01RestartDocker', name: 'shell',
            state: { status: 'error', input: { command: 'sudo systemctl restart docker' }, content: [], structured: {}, error: { type: 'aborted', message: 'Tool execution aborted' } },
            time: { created: T0 + 161_100, ran: T0 + 161_300, completed: T0 + 162_000 },
          },
          { type: 'text', id: 'tx_3', text: 'vLLM answers on port 8000.' },
        ],
        time: { created: T0 + 160_000, completed: T0 + 163_000 },
      },
    },
    { id: id('msg', 300_000), type: 'compaction', data: { reason: 'auto', status: 'completed', summary: 'Qwen3-30B-A3B is served by nvcr.io/nvidia/vllm:25.09-py3 on spark-1:8000; the upstream image has no arm64 build.', recent: '[User]: check it again', time: { created: T0 + 300_000 } } },
    { id: id('msg', 310_000), type: 'agent-switched', data: { agent: 'plan', time: { created: T0 + 310_000 } } },
    { id: id('msg', 320_000), type: 'model-switched', data: { model: { id: 'claude-opus-4-1', providerID: 'anthropic', variant: 'default' }, time: { created: T0 + 320_000 } } },
    { id: id('msg', 400_000), type: 'idle', data: { outcome: 'succeeded', time: { created: T0 + 400_000 } } },
  ],
};

/** What NATIVE must read as: every number an independent reader of the rows above would count. */
export const NATIVE_EXPECTED = {
  messages: 10,
  toolCalls: 7,
  exitCodes: { toolu_01GpuQuery: 0, toolu_01PullUpstream: 1, toolu_01RunNvcr: null, toolu_01ReadDaemon: null, shl_01UserPs: 0, toolu_01Health: 0, toolu_01RestartDocker: null },
  timedOut: ['toolu_01RestartDocker', 'toolu_01RunNvcr'],
  durations: { toolu_01GpuQuery: 800, toolu_01PullUpstream: 14_800, toolu_01RunNvcr: 120_100, shl_01UserPs: 800 },
};

const V1_VERSION_BEFORE = '1.18.25';
const disk = { user: id('msg', -86_400_000), assistant: id('msg', -86_398_000) };

function v1User(messageId: string, at: number, text: string): V1Message {
  return {
    info: { id: messageId, role: 'user', time: { created: at }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' } },
    parts: [{ id: opencodeId('prt', at, 1), type: 'text', text }],
  };
}

function v1Bash(messageId: string, parent: string, at: number, command: string, output: string, exit: number | null): V1Message {
  return {
    info: {
      id: messageId, role: 'assistant', parentID: parent, time: { created: at, completed: at + 4_000 }, modelID: 'claude-sonnet-4-5',
      providerID: 'anthropic', mode: 'build', agent: 'build', path: { cwd: '/home/ops', root: '/home/ops' }, cost: 0.004,
      tokens: usage(3100, 90), finish: 'tool-calls',
    },
    parts: [
      { id: opencodeId('prt', at, 1), type: 'step-start', snapshot: '9d1a' },
      {
        id: opencodeId('prt', at, 2), type: 'tool', callID: `toolu_v1_${at}`, tool: 'bash',
        state: { status: 'completed', input: { command, description: 'run' }, output, title: 'run', metadata: { output, exit, description: 'run', truncated: false }, time: { start: at + 500, end: at + 3_500 } },
      },
      { id: opencodeId('prt', at, 3), type: 'step-finish', reason: 'tool-calls', cost: 0.004, tokens: usage(3100, 90) },
    ],
  };
}

/** One session in both generations: its 1.x rows, and the 2.x rows the importer made of them and 2.x added. */
export const IMPORTED = {
  session: {
    id: 'ses_2c11a5d07ffeH2bq9RkTz0WcYe', title: 'Check disk on spark-1', version: V1_VERSION_BEFORE,
    directory: '/home/ops', created: T0 - 86_400_000, updated: T0 - 86_390_000,
  } satisfies DbSession,
  v1: [v1User(disk.user, T0 - 86_400_000, 'How full is the root disk on spark-1?'), v1Bash(disk.assistant, disk.user, T0 - 86_398_000, 'df -h /', '/dev/nvme0n1p2  3.7T  2.1T  1.5T  59% /', 0)],
  v2: [
    { id: disk.user, type: 'user', data: { text: 'How full is the root disk on spark-1?', time: { created: T0 - 86_400_000 } } },
    {
      id: disk.assistant, type: 'assistant',
      data: {
        agent: 'build', model: MODEL, cost: 0.004, tokens: usage(3100, 90), finish: 'tool-calls', snapshot: { start: '9d1a' },
        content: [{
          type: 'tool', id: `toolu_v1_${T0 - 86_398_000}`, name: 'shell',
          state: { status: 'completed', input: { command: 'df -h /', description: 'run' }, content: [{ type: 'text', text: '/dev/nvme0n1p2  3.7T  2.1T  1.5T  59% /' }], metadata: { output: '/dev/nvme0n1p2  3.7T  2.1T  1.5T  59% /', exit: 0, description: 'run', truncated: false } },
          time: { created: T0 - 86_397_500, completed: T0 - 86_394_500 },
        }],
        time: { created: T0 - 86_398_000, completed: T0 - 86_394_000 },
      },
    },
    { id: id('msg', 500_000), type: 'user', data: { text: 'And /var/lib/docker?', time: { created: T0 + 500_000 } } },
    { id: id('msg', 502_000), type: 'assistant', data: { agent: 'build', model: MODEL, finish: 'stop', content: [{ type: 'text', id: 'tx_9', text: 'It is on the same filesystem.' }], time: { created: T0 + 502_000, completed: T0 + 503_000 } } },
  ] satisfies V2Message[],
  titleIn2x: 'Check disk on spark-1 (continued in 2.x)',
};

/** Written by 1.17 after the import, so only in the 1.x tables: its bash tool reports a timeout in <shell_metadata>. */
export const AFTER_IMPORT = {
  session: {
    id: 'ses_2a90d3e44ffeP0xk7WmQ1cNbRv', title: 'Benchmark the endpoint', version: '1.17.9',
    directory: '/home/ops/spark-deploy', created: T0 + 900_000, updated: T0 + 990_000,
  } satisfies DbSession,
  messages: [
    v1User(id('msg', 900_000), T0 + 900_000, 'Run the throughput benchmark against spark-1:8000.'),
    v1Bash(
      id('msg', 902_000), id('msg', 900_000), T0 + 902_000, 'python3 bench.py --url http://spark-1:8000 --concurrency 64',
      'warmup done\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout 5000 ms. If this command is expected to take longer and is not waiting for interactive input, retry with a larger timeout value in milliseconds.\n</shell_metadata>',
      null,
    ),
  ],
};

/**
 * A 2.x `opencode.db` at `file` as a real upgrade leaves it: a native 2.x session, one imported
 * from 1.x (in both table generations), and one that 1.x wrote after the import.
 */
export function writeGenerationsDb(file: string): string {
  const db = createOpencodeDb(file, '2.x');
  try {
    insertV1Session(db, IMPORTED.session, IMPORTED.v1);
    insertV2Session(db, { ...IMPORTED.session, title: IMPORTED.titleIn2x, version: '2.0.12' }, IMPORTED.v2);
    markImported(db, T0 - 3_600_000);
    insertV2Session(db, NATIVE.session, NATIVE.messages);
    insertV1Session(db, AFTER_IMPORT.session, AFTER_IMPORT.messages);
  } finally {
    db.close();
  }
  return file;
}
