/**
 * Writes the Claude Code and Codex transcript fixtures under test/fixtures/ from the stories below,
 * then re-reads every file it wrote and checks it (every line JSON, ids unique, tool calls answered,
 * timestamps in order) and refreshes the counts block of test/fixtures/README.md.
 *
 *   npx tsx scripts/build-fixtures.ts          # write + check
 *   npx tsx scripts/build-fixtures.ts --check  # check the committed files only (no zstd binary needed)
 *
 * Writing needs the `zstd` CLI (Debian package `zstd`) for the one compressed rollout.
 *
 * Everything is deterministic: ids come from a seeded generator and times from a script clock, so a
 * re-run rewrites identical bytes (the .zst file too, for a given zstd version). The shapes follow
 * docs/formats/claude-code.md and docs/formats/codex.md; this file is one long script because it is
 * mostly data, the transcripts themselves.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decompress } from 'fzstd';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = join(ROOT, 'test', 'fixtures');

type Line = Record<string, unknown>;

/**
 * The decision tree each story is meant to yield, written to test/fixtures/<agent>/expected.json.
 * Evidence and reason excerpts are checked to occur verbatim in the file they point at.
 */
interface Candidate {
  kind: 'image' | 'framework' | 'approach';
  name: string;
  verdict: 'rejected' | 'accepted' | 'untested' | 'abandoned';
  reason: string;
  /** The tool call whose output decided the verdict, and a verbatim excerpt of that output. */
  evidence: { callId: string; excerpt: string };
  /** The agent's own words stating the verdict (assistant text, thinking or reasoning summary). */
  reasonExcerpt: string;
}
interface Tree {
  agent: 'claude' | 'codex';
  file: string;
  sessionId: string;
  parentSessionId: string | null;
  /** Claude subagent files share the parent's sessionId; agentId tells them apart. */
  agentId?: string;
  spawnedBy: string | null;
  format: string;
  goal: string;
  goalExcerpt: string;
  candidates: Candidate[];
  pivots: { from: string; to: string; kind: 'image' | 'framework' | 'approach'; note: string }[];
  counts?: Counts;
}
const TREES: Tree[] = [];
const rel = (path: string, agent: 'claude' | 'codex') => relative(join(FIXTURES, agent), path);

// ---------------------------------------------------------------------------------------------
// Deterministic ids and times
// ---------------------------------------------------------------------------------------------

/** mulberry32: tiny seeded PRNG, enough to make ids that look random but never change. */
class Ids {
  private state: number;
  constructor(seed: string) {
    let h = 2166136261;
    for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    this.state = h >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  pick(alphabet: string, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.next() * alphabet.length)] ?? '0';
    return out;
  }
  hex(n: number): string {
    return this.pick('0123456789abcdef', n);
  }
  alnum(n: number): string {
    return this.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', n);
  }
  b64(n: number): string {
    return this.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', n);
  }
  uuid(): string {
    const h = this.hex(32);
    const variant = '89ab'[Math.floor(this.next() * 4)] ?? '8';
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
  /** Codex thread ids are UUIDv7: the first 48 bits are the creation time in ms. */
  uuidv7(ms: number): string {
    const t = ms.toString(16).padStart(12, '0');
    const h = this.hex(20);
    const variant = '89ab'[Math.floor(this.next() * 4)] ?? '8';
    return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${h.slice(0, 3)}-${variant}${h.slice(3, 6)}-${h.slice(6, 18)}`;
  }
}

class Clock {
  ms: number;
  constructor(iso: string) {
    this.ms = Date.parse(iso);
  }
  iso(): string {
    return new Date(this.ms).toISOString();
  }
  tick(ms: number): string {
    this.ms += ms;
    return this.iso();
  }
}

// ---------------------------------------------------------------------------------------------
// Claude Code writer
// ---------------------------------------------------------------------------------------------

interface ClaudeEnv {
  sessionId: string;
  cwd: string;
  version: string;
  gitBranch: string;
  model: string;
  /** 2.1-era files carry entrypoint, slug, promptId, noOutputExpected; 2.0-era files do not. */
  era: '2.0' | '2.1';
  slug?: string;
  agentId?: string;
}

interface Usage {
  input: number;
  cacheCreate: number;
  cacheRead: number;
  output: number;
}

type Block = Line;

class ClaudeWriter {
  readonly lines: Line[] = [];
  /** uuid of the last record on the conversation chain (user/assistant/attachment/system). */
  last: string | null = null;
  promptId: string | null = null;

  constructor(
    readonly env: ClaudeEnv,
    readonly ids: Ids,
    readonly clock: Clock,
  ) {}

  private envelope(parentUuid: string | null): Line {
    const e = this.env;
    const head: Line = { parentUuid, isSidechain: e.agentId !== undefined };
    if (e.agentId !== undefined) head.agentId = e.agentId;
    head.userType = 'external';
    if (e.era === '2.1') head.entrypoint = 'cli';
    Object.assign(head, { cwd: e.cwd, sessionId: e.sessionId, version: e.version, gitBranch: e.gitBranch });
    if (e.slug !== undefined) head.slug = e.slug;
    return head;
  }

  raw(line: Line): void {
    this.lines.push(line);
  }

  human(text: string, extra: Line = {}): string {
    const uuid = this.ids.uuid();
    if (this.env.era === '2.1') this.promptId = this.ids.uuid();
    const line: Line = { ...this.envelope(this.last), type: 'user' };
    if (this.promptId !== null && this.env.era === '2.1') line.promptId = this.promptId;
    Object.assign(line, { message: { role: 'user', content: text }, uuid, timestamp: this.clock.iso(), ...extra });
    this.raw(line);
    this.last = uuid;
    return uuid;
  }

  /**
   * One API response: Claude Code writes one line per content block, all with the same
   * message.id and requestId, each line repeating the whole response's usage.
   */
  assistant(blocks: Block[], stop: 'tool_use' | 'end_turn', usage: Usage, gapMs = 900): string[] {
    const msgId = `msg_01${this.ids.alnum(22)}`;
    const requestId = `req_011C${this.ids.alnum(20)}`;
    const uuids: string[] = [];
    blocks.forEach((block, i) => {
      if (i > 0) this.clock.tick(gapMs);
      const uuid = this.ids.uuid();
      const message: Line = {
        model: this.env.model,
        id: msgId,
        type: 'message',
        role: 'assistant',
        content: [block],
        stop_reason: this.env.era === '2.1' ? stop : i === blocks.length - 1 ? stop : null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          cache_creation_input_tokens: usage.cacheCreate,
          cache_read_input_tokens: usage.cacheRead,
          cache_creation: { ephemeral_5m_input_tokens: usage.cacheCreate, ephemeral_1h_input_tokens: 0 },
          output_tokens: usage.output,
          service_tier: 'standard',
        },
      };
      this.raw({ ...this.envelope(this.last), message, requestId, type: 'assistant', uuid, timestamp: this.clock.iso() });
      this.last = uuid;
      uuids.push(uuid);
    });
    return uuids;
  }

  /** A tool result is a user record whose parent is the assistant record that issued the call. */
  toolResult(toolUseId: string, issuer: string, content: unknown, isError: boolean, toolUseResult: unknown): string {
    const uuid = this.ids.uuid();
    const line: Line = { ...this.envelope(issuer) };
    if (this.env.era === '2.1' && this.promptId !== null) line.promptId = this.promptId;
    const block: Line = { tool_use_id: toolUseId, type: 'tool_result', content };
    if (isError || this.env.era === '2.1') block.is_error = isError;
    Object.assign(line, {
      type: 'user',
      message: { role: 'user', content: [block] },
      uuid,
      timestamp: this.clock.iso(),
      toolUseResult,
    });
    if (this.env.era === '2.1') line.sourceToolAssistantUUID = issuer;
    this.raw(line);
    this.last = uuid;
    return uuid;
  }

  /** progress records hang off the chain (they carry uuid/parentUuid) but never become its tip. */
  progress(data: Line, toolUseID: string, parentToolUseID: string, at?: string): void {
    this.raw({
      ...this.envelope(this.last),
      type: 'progress',
      data,
      toolUseID,
      parentToolUseID,
      uuid: this.ids.uuid(),
      timestamp: at ?? this.clock.iso(),
    });
  }

  attachment(attachment: Line): string {
    const uuid = this.ids.uuid();
    this.raw({ ...this.envelope(this.last), attachment, type: 'attachment', uuid, timestamp: this.clock.iso() });
    this.last = uuid;
    return uuid;
  }

  system(subtype: string, fields: Line): string {
    const uuid = this.ids.uuid();
    this.raw({ ...this.envelope(this.last), type: 'system', subtype, ...fields, isMeta: true, uuid, timestamp: this.clock.iso() });
    this.last = uuid;
    return uuid;
  }

  toolUseId(): string {
    return `toolu_01${this.ids.alnum(22)}`;
  }

  signature(): string {
    return `Eq${this.ids.b64(6)}CkYIBhgCKkA${this.ids.b64(280)}GAE=`;
  }
}

const thinking = (w: ClaudeWriter, text: string): Block => ({ type: 'thinking', thinking: text, signature: w.signature() });
const say = (text: string): Block => ({ type: 'text', text });
const toolUse = (id: string, name: string, input: Line): Block => ({ type: 'tool_use', id, name, input });

function bashOk(w: ClaudeWriter, stdout: string, stderr = ''): { content: string; result: Line } {
  const result: Line = { stdout, stderr, interrupted: false, isImage: false };
  if (w.env.era === '2.1') result.noOutputExpected = false;
  return { content: stderr === '' ? stdout : `${stdout}\n${stderr}`, result };
}

/** A non-zero exit: is_error, "Exit code N" first, and the sidecar degrades to an error string. */
function bashFail(exit: number, output: string): { content: string; result: string } {
  return { content: `Exit code ${exit}\n${output}`, result: `Error: Exit code ${exit}\n${output}` };
}

/** The Bash tool's default limit is 120000 ms; a command past it is killed and reported like this. */
function bashTimeout(partial: string): { content: string; result: string } {
  return {
    content: `Command timed out after 2m 0.0s\n${partial}`,
    result: `Error: Command timed out after 2m 0.0s\n${partial}`,
  };
}

const SPARK = 'ops@10.20.0.5';
const CLAUDE_SECRET = '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';

interface ClaudeOutput {
  path: string;
  lines: Line[];
}

/** bash_progress records, stamped `seconds` after the call started at `t0`. */
function bashProgress(w: ClaudeWriter, parent: string, n: number, t0: number, seconds: number, out: string): void {
  const lines = out.split('\n');
  w.clock.ms = t0 + seconds * 1000;
  w.progress(
    { type: 'bash_progress', output: lines.slice(-5).join('\n'), fullOutput: out, elapsedTimeSeconds: seconds, totalLines: out === '' ? 0 : lines.length },
    `bash-progress-${n}`,
    parent,
  );
}

// ---------------------------------------------------------------------------------------------
// Claude story A: gpt-oss-120b on one GB10 Spark (2.1-era layout, subagent under subagents/)
// ---------------------------------------------------------------------------------------------

function claudeSessionA(): ClaudeOutput[] {
  const ids = new Ids('claude-gptoss-main');
  const clock = new Clock('2026-02-17T09:02:11.418Z');
  const sessionId = ids.uuid();
  const env: ClaudeEnv = {
    sessionId,
    cwd: '/home/ops/gptoss',
    version: '2.1.19',
    gitBranch: 'main',
    model: 'claude-opus-4-5-20251101',
    era: '2.1',
    slug: 'steady-amber-lighthouse',
  };
  const w = new ClaudeWriter(env, ids, clock);
  const pull = (image: string) => `ssh ${SPARK} 'docker pull ${image}'`;

  // Line 1 is filled in at the end: the summary names the leaf of the conversation.
  w.raw({ type: 'summary', summary: '', leafUuid: '' });

  const firstPromptUuidSlot = w.lines.length;
  w.raw({ type: 'file-history-snapshot', messageId: '', snapshot: { messageId: '', trackedFileBackups: {}, timestamp: clock.iso() }, isSnapshotUpdate: false });
  clock.tick(37);
  const goal =
    'Goal: get openai/gpt-oss-120b serving an OpenAI-compatible API on our DGX Spark (GB10, arm64, 128 GB unified memory). ' +
    `Only touch it through ssh ${SPARK} '…'. Use vLLM in Docker and expose port 8000. The HF token is in ~/.hf_token on the box. ` +
    'Tell me which images you rule out and why.';
  const u1 = w.human(goal, { thinkingMetadata: { level: 'high', disabled: false, triggers: [] }, todos: [], permissionMode: 'default' });
  const snap = w.lines[firstPromptUuidSlot];
  if (snap !== undefined) {
    snap.messageId = u1;
    (snap.snapshot as Line).messageId = u1;
  }

  // A1: preflight, three parallel Bash calls in one response.
  clock.tick(3_912);
  const pre = [w.toolUseId(), w.toolUseId(), w.toolUseId()];
  const a1 = w.assistant(
    [
      thinking(
        w,
        'Before picking an image I need the basics of the box: CPU architecture (the user says arm64, confirm it), the GPU and its compute capability (GB10 should report 12.1, i.e. sm_121), the driver, Docker, free disk for a ~65 GB checkpoint, and whether the weights are already cached. These are independent, so run them in parallel.',
      ),
      say("I'll start with a quick survey of the Spark: architecture, GPU, Docker, disk, and the Hugging Face cache."),
      toolUse(pre[0] ?? '', 'Bash', {
        command: `ssh ${SPARK} 'uname -m && nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv,noheader'`,
        description: 'Check CPU arch and GPU on the Spark',
      }),
      toolUse(pre[1] ?? '', 'Bash', {
        command: `ssh ${SPARK} 'docker version --format "{{.Server.Version}}" && df -h /home | tail -1'`,
        description: 'Check Docker version and free disk',
      }),
      toolUse(pre[2] ?? '', 'Bash', {
        command: `ssh ${SPARK} 'ls ~/.cache/huggingface/hub 2>/dev/null | grep -i gpt-oss || echo none'`,
        description: 'Look for cached gpt-oss weights',
      }),
    ],
    'tool_use',
    { input: 4, cacheCreate: 21_877, cacheRead: 12_306, output: 642 },
    410,
  );
  const preOut = [
    bashOk(w, 'aarch64\nNVIDIA GB10, 580.95.05, 12.1, [N/A]'),
    bashOk(w, '28.5.1\n/dev/nvme0n1p2  3.7T  611G  2.9T  18% /'),
    bashOk(w, 'none'),
  ];
  clock.tick(1_604);
  w.toolResult(pre[0] ?? '', a1[2] ?? '', preOut[0]?.content, false, preOut[0]?.result);
  clock.tick(212);
  w.toolResult(pre[1] ?? '', a1[3] ?? '', preOut[1]?.content, false, preOut[1]?.result);
  clock.tick(95);
  w.toolResult(pre[2] ?? '', a1[4] ?? '', preOut[2]?.content, false, preOut[2]?.result);

  // A2: the upstream image.
  clock.tick(4_388);
  const upId = w.toolUseId();
  const a2 = w.assistant(
    [
      thinking(
        w,
        'Confirmed aarch64, GB10 at compute capability 12.1, driver 580, Docker 28, 2.9 TB free, no weights cached yet. The first upstream vLLM release with gpt-oss support is v0.10.1, published as vllm/vllm-openai:v0.10.1. Try pulling that first; it is the simplest path if it has an arm64 variant.',
      ),
      toolUse(upId, 'Bash', { command: pull('vllm/vllm-openai:v0.10.1'), description: 'Pull upstream vLLM v0.10.1 image', timeout: 600000 }),
    ],
    'tool_use',
    { input: 6, cacheCreate: 1_139, cacheRead: 34_183, output: 233 },
  );
  clock.tick(2_951);
  const upFail = bashFail(1, 'Error response from daemon: no matching manifest for linux/arm64/v8 in the manifest list entries');
  w.toolResult(upId, a2[1] ?? '', upFail.content, true, upFail.result);

  // A3: reason for rejecting, then research.
  clock.tick(5_120);
  const searchId = w.toolUseId();
  const a3 = w.assistant(
    [
      thinking(
        w,
        'The manifest list for vllm/vllm-openai:v0.10.1 has no linux/arm64 entry: the upstream image is built for amd64 only, so it can never run on this Spark no matter which flags I use. Reject it. NVIDIA publishes its own vLLM container on NGC (nvcr.io/nvidia/vllm) with arm64 builds for Grace/Spark; I need to find which monthly tag supports GB10.',
      ),
      say(
        'Rejected `vllm/vllm-openai:v0.10.1`: the pull fails with "no matching manifest for linux/arm64/v8", i.e. the upstream image ships amd64 only and cannot run on the Spark. NVIDIA builds vLLM for arm64 on NGC, so I\'ll look for the right `nvcr.io/nvidia/vllm` tag.',
      ),
      toolUse(searchId, 'WebSearch', { query: 'nvcr.io/nvidia/vllm container DGX Spark GB10 gpt-oss-120b' }),
    ],
    'tool_use',
    { input: 6, cacheCreate: 512, cacheRead: 35_322, output: 318 },
  );
  clock.tick(9_847);
  const links = [
    { title: 'vLLM | NVIDIA NGC', url: 'https://catalog.ngc.nvidia.com/orgs/nvidia/containers/vllm' },
    { title: 'vLLM Release 25.09 - NVIDIA Docs', url: 'https://docs.nvidia.com/deeplearning/frameworks/vllm-release-notes/rel-25-09.html' },
    { title: 'Run gpt-oss on DGX Spark - NVIDIA Developer Forums', url: 'https://forums.developer.nvidia.com/t/run-gpt-oss-on-dgx-spark/345112' },
  ];
  const searchSummary =
    'NVIDIA ships a vLLM container on NGC as nvcr.io/nvidia/vllm:<yy.mm>-py3, built for both amd64 and arm64. The 25.09 release notes list DGX Spark as a preview platform and vLLM 0.10.1.1, which includes gpt-oss support. Forum users report running gpt-oss-120b on a Spark with the NGC container.';
  w.toolResult(
    searchId,
    a3[2] ?? '',
    `Web search results for query: "nvcr.io/nvidia/vllm container DGX Spark GB10 gpt-oss-120b"\n\nLinks: ${JSON.stringify(links)}\n\n${searchSummary}`,
    false,
    {
      query: 'nvcr.io/nvidia/vllm container DGX Spark GB10 gpt-oss-120b',
      results: [{ tool_use_id: `srvtoolu_01${ids.alnum(22)}`, content: links }, searchSummary],
      durationSeconds: 9.611,
    },
  );

  clock.tick(3_402);
  const fetchId = w.toolUseId();
  const a4 = w.assistant(
    [
      toolUse(fetchId, 'WebFetch', {
        url: 'https://docs.nvidia.com/deeplearning/frameworks/vllm-release-notes/rel-25-09.html',
        prompt: 'Which vLLM version is in this container, which CPU architectures are built, and is DGX Spark / GB10 listed as supported?',
      }),
    ],
    'tool_use',
    { input: 6, cacheCreate: 1_420, cacheRead: 35_834, output: 141 },
  );
  clock.tick(6_207);
  const fetchText =
    'Release 25.09 contains vLLM 0.10.1.1 with PyTorch 2.8.0a0 and CUDA 13.0. Images are published for x86_64 and arm64 (SBSA). DGX Spark is listed under "Preview platforms" with the note that some kernels may not be available for all GPU architectures.';
  w.toolResult(fetchId, a4[0] ?? '', fetchText, false, {
    bytes: 48_213,
    code: 200,
    codeText: 'OK',
    result: fetchText,
    durationMs: 6_044,
    url: 'https://docs.nvidia.com/deeplearning/frameworks/vllm-release-notes/rel-25-09.html',
  });

  // A5: weights first; the foreground download runs into the 2-minute Bash limit.
  clock.tick(4_730);
  const dlId = w.toolUseId();
  const a5 = w.assistant(
    [
      say('25.09 is arm64 and lists the Spark as a preview platform, so it is the next candidate. While that image pulls I also need the weights; starting the download first.'),
      toolUse(dlId, 'Bash', {
        command: `ssh ${SPARK} 'HF_TOKEN=${CLAUDE_SECRET} huggingface-cli download openai/gpt-oss-120b'`,
        description: 'Download gpt-oss-120b weights',
      }),
    ],
    'tool_use',
    { input: 6, cacheCreate: 702, cacheRead: 37_254, output: 176 },
  );
  const dlPartial = 'Fetching 29 files:   3%|▎         | 1/29 [01:41<47:23, 101.55s/it]';
  const dlStart = clock.ms;
  bashProgress(w, dlId, 0, dlStart, 31, 'Fetching 29 files:   0%|          | 0/29 [00:00<?, ?it/s]');
  bashProgress(w, dlId, 1, dlStart, 60, 'Fetching 29 files:   0%|          | 0/29 [00:58<?, ?it/s]');
  clock.ms = dlStart + 120_412;
  const dlTimeout = bashTimeout(dlPartial);
  w.toolResult(dlId, a5[1] ?? '', dlTimeout.content, true, dlTimeout.result);

  clock.tick(3_886);
  const bgId = w.toolUseId();
  const a6 = w.assistant(
    [
      thinking(
        w,
        'The download hit the Bash tool\'s 2-minute limit; 29 files and ~65 GB will take far longer than that. Run it detached on the Spark with nohup, reading the token from ~/.hf_token instead of the command line, and poll the log later.',
      ),
      toolUse(bgId, 'Bash', {
        command: `ssh ${SPARK} 'export HF_TOKEN=$(cat ~/.hf_token); nohup huggingface-cli download openai/gpt-oss-120b > ~/hf-gptoss.log 2>&1 & echo started'`,
        description: 'Run the weight download in the background',
      }),
    ],
    'tool_use',
    { input: 6, cacheCreate: 388, cacheRead: 37_956, output: 205 },
  );
  clock.tick(1_318);
  const bgOut = bashOk(w, 'started');
  w.toolResult(bgId, a6[1] ?? '', bgOut.content, false, bgOut.result);

  // A6: pull the NGC 25.09 image (long, with progress records).
  clock.tick(2_660);
  const ngc909Id = w.toolUseId();
  const a7 = w.assistant([toolUse(ngc909Id, 'Bash', { command: pull('nvcr.io/nvidia/vllm:25.09-py3'), description: 'Pull NGC vLLM 25.09 image', timeout: 600000 })], 'tool_use', {
    input: 6,
    cacheCreate: 229,
    cacheRead: 38_344,
    output: 112,
  });
  const layers909 = ['7a1c3f2e9b10', 'c44f0e8a21d7', '0b9e6d5c4a3f', 'e2f1a0b9c8d7', '5d6c7b8a9f0e'];
  const pull909Start = clock.ms;
  bashProgress(w, ngc909Id, 0, pull909Start, 35, `25.09-py3: Pulling from nvidia/vllm\n${layers909.map((l) => `${l}: Pulling fs layer`).join('\n')}`);
  bashProgress(w, ngc909Id, 1, pull909Start, 180, `25.09-py3: Pulling from nvidia/vllm\n${layers909.slice(0, 3).map((l) => `${l}: Pull complete`).join('\n')}\ne2f1a0b9c8d7: Downloading  5.91GB/9.874GB`);
  clock.ms = pull909Start + 236_517;
  const pulled909 = bashOk(
    w,
    `25.09-py3: Pulling from nvidia/vllm\n${layers909.map((l) => `${l}: Pull complete`).join('\n')}\nDigest: sha256:${ids.hex(64)}\nStatus: Downloaded newer image for nvcr.io/nvidia/vllm:25.09-py3\nnvcr.io/nvidia/vllm:25.09-py3`,
  );
  w.toolResult(ngc909Id, a7[0] ?? '', pulled909.content, false, pulled909.result);

  // A7: wait for the weights.
  clock.tick(3_015);
  const waitId = w.toolUseId();
  const a8 = w.assistant(
    [toolUse(waitId, 'Bash', { command: `ssh ${SPARK} 'while pgrep -f "huggingface-cli download" >/dev/null; do sleep 20; done; tail -n 2 ~/hf-gptoss.log'`, description: 'Wait for the weight download to finish', timeout: 600000 })],
    'tool_use',
    { input: 6, cacheCreate: 611, cacheRead: 38_573, output: 129 },
  );
  const waitStart = clock.ms;
  bashProgress(w, waitId, 0, waitStart, 120, '');
  bashProgress(w, waitId, 1, waitStart, 300, '');
  clock.ms = waitStart + 512_338;
  const snapshotRev = ids.hex(40);
  const waited = bashOk(w, `Fetching 29 files: 100%|██████████| 29/29 [12:29<00:00, 25.84s/it]\n/home/ops/.cache/huggingface/hub/models--openai--gpt-oss-120b/snapshots/${snapshotRev}`);
  w.toolResult(waitId, a8[0] ?? '', waited.content, false, waited.result);

  // A8: serve with 25.09 — fails on the GPU architecture.
  clock.tick(4_120);
  const serve909Id = w.toolUseId();
  const a9 = w.assistant(
    [
      say('Weights are in place. Trying a foreground `vllm serve` with the 25.09 image to see whether it gets through engine start-up on GB10.'),
      toolUse(serve909Id, 'Bash', {
        command: `ssh ${SPARK} 'set -o pipefail; timeout 900 docker run --rm --gpus all --ipc=host -v $HOME/.cache/huggingface:/root/.cache/huggingface nvcr.io/nvidia/vllm:25.09-py3 vllm serve openai/gpt-oss-120b --port 8000 2>&1 | tail -n 14'`,
        description: 'Probe vllm serve with NGC 25.09',
        timeout: 600000,
      }),
    ],
    'tool_use',
    { input: 6, cacheCreate: 402, cacheRead: 39_184, output: 287 },
  );
  const serve909Start = clock.ms;
  bashProgress(w, serve909Id, 0, serve909Start, 45, '==========\n== vLLM ==\n==========\n\nNVIDIA Release 25.09 (build 214638690)');
  clock.ms = serve909Start + 51_930;
  const fail909 = bashFail(
    1,
    [
      '/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:287: UserWarning: ',
      '    NVIDIA GB10 with CUDA capability sm_121 is not compatible with the current PyTorch installation.',
      '    The current PyTorch install supports CUDA capabilities sm_80 sm_86 sm_90 sm_100 sm_120 compute_120.',
      'INFO 02-17 09:17:58 [__init__.py:216] Automatically detected platform cuda.',
      '(APIServer pid=1) INFO 02-17 09:18:05 [api_server.py:1839] vLLM API server version 0.10.1.1+381074ae.nv25.09',
      '(APIServer pid=1) INFO 02-17 09:18:05 [utils.py:326] non-default args: {\'model\': \'openai/gpt-oss-120b\'}',
      '(EngineCore_0 pid=244) INFO 02-17 09:18:27 [gpu_model_runner.py:1953] Starting to load model openai/gpt-oss-120b...',
      '(EngineCore_0 pid=244) ERROR 02-17 09:18:29 [core.py:700] EngineCore failed to start.',
      '(EngineCore_0 pid=244) ERROR 02-17 09:18:29 [core.py:700] Traceback (most recent call last):',
      '(EngineCore_0 pid=244) ERROR 02-17 09:18:29 [core.py:700]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py", line 201, in init_device',
      '(EngineCore_0 pid=244) ERROR 02-17 09:18:29 [core.py:700]     torch.cuda.empty_cache()',
      '(EngineCore_0 pid=244) ERROR 02-17 09:18:29 [core.py:700] torch.AcceleratorError: CUDA error: no kernel image is available for execution on the device',
      '(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
    ].join('\n'),
  );
  w.toolResult(serve909Id, a9[1] ?? '', fail909.content, true, fail909.result);

  // A9: rejection, then a subagent checks the NGC catalog.
  clock.tick(6_812);
  const taskId = w.toolUseId();
  const taskPrompt =
    'Check the NGC catalog for nvcr.io/nvidia/vllm and list the tags newer than 25.09-py3. For each: vLLM version, whether an arm64 image exists, and whether its release notes say GB10 / DGX Spark (compute capability 12.1, sm_121) is supported. You may run read-only commands on the Spark (ssh ops@10.20.0.5 \'docker manifest inspect …\'), but do not pull or run anything. Recommend one tag.';
  const a10 = w.assistant(
    [
      thinking(
        w,
        'The 25.09 container loads, but PyTorch inside it was compiled for sm_80/86/90/100/120 only. GB10 is sm_121, so every CUDA kernel launch fails with "no kernel image is available". That is a property of the image build, not of my flags: reject 25.09. The fix should be a later NGC monthly build whose PyTorch includes sm_121. Delegate the catalog check to a subagent so I get a clean list of tags.',
      ),
      say(
        'Rejected `nvcr.io/nvidia/vllm:25.09-py3`: engine start-up dies with "CUDA error: no kernel image is available for execution on the device" because its PyTorch has no sm_121 kernels (the GB10 is compute capability 12.1). A newer NGC build should include them; checking the catalog.',
      ),
      toolUse(taskId, 'Task', { description: 'Find NGC vLLM tag with GB10 support', prompt: taskPrompt, subagent_type: 'general-purpose' }),
    ],
    'tool_use',
    { input: 6, cacheCreate: 1_871, cacheRead: 39_586, output: 540 },
  );

  // The subagent's own transcript (new layout: <session>/subagents/agent-<id>.jsonl).
  const agentId = `a${ids.hex(16)}`;
  const sub = new ClaudeWriter({ ...env, agentId, model: 'claude-sonnet-4-5-20250929' }, ids, clock);
  clock.tick(612);
  sub.human(taskPrompt);
  const subFetchId = sub.toolUseId();
  const subManifestId = sub.toolUseId();
  clock.tick(3_215);
  const s1 = sub.assistant(
    [
      say("I'll read the NGC tag list and check the arm64 manifests for the newer tags."),
      toolUse(subFetchId, 'WebFetch', {
        url: 'https://catalog.ngc.nvidia.com/orgs/nvidia/containers/vllm/tags',
        prompt: 'List the tags newer than 25.09-py3 with their dates, vLLM versions, and any note about DGX Spark / GB10 support.',
      }),
      toolUse(subManifestId, 'Bash', {
        command: `ssh ${SPARK} 'for t in 25.10-py3 25.11-py3 25.12-py3; do echo "$t: $(docker manifest inspect nvcr.io/nvidia/vllm:$t | grep -o "\\"architecture\\": \\"[a-z0-9]*\\"" | sort -u | tr "\\n" " ")"; done'`,
        description: 'Check arm64 manifests of newer NGC vLLM tags',
      }),
    ],
    'tool_use',
    { input: 3, cacheCreate: 9_412, cacheRead: 0, output: 402 },
    350,
  );
  clock.tick(7_702);
  const tagsText =
    '25.12-py3 (2026-01-23): vLLM 0.11.2, CUDA 13.1, PyTorch 2.10.0a0; multi-arch. 25.11-py3 (2025-12-18): vLLM 0.11.0, CUDA 13.0.2, PyTorch 2.9.0a0; release notes: "Adds support for NVIDIA GB10 (DGX Spark), compute capability 12.1". 25.10-py3 (2025-11-20): vLLM 0.10.2, DGX Spark still listed as preview.';
  sub.toolResult(subFetchId, s1[1] ?? '', tagsText, false, {
    bytes: 91_446,
    code: 200,
    codeText: 'OK',
    result: tagsText,
    durationMs: 7_513,
    url: 'https://catalog.ngc.nvidia.com/orgs/nvidia/containers/vllm/tags',
  });
  clock.tick(1_844);
  const manifests = bashOk(
    sub,
    '25.10-py3: "architecture": "amd64" "architecture": "arm64" \n25.11-py3: "architecture": "amd64" "architecture": "arm64" \n25.12-py3: "architecture": "amd64" "architecture": "arm64" ',
  );
  sub.toolResult(subManifestId, s1[2] ?? '', manifests.content, false, manifests.result);
  clock.tick(5_330);
  const subFinal =
    'Newer tags than 25.09-py3, all with arm64 images:\n' +
    '- nvcr.io/nvidia/vllm:25.10-py3 — vLLM 0.10.2; Spark still "preview", no sm_121 claim.\n' +
    '- nvcr.io/nvidia/vllm:25.11-py3 — vLLM 0.11.0; first release whose notes say GB10 (compute capability 12.1) is supported.\n' +
    '- nvcr.io/nvidia/vllm:25.12-py3 — vLLM 0.11.2; also multi-arch, newest (a month old), no GB10-specific notes beyond 25.11.\n\n' +
    'Recommendation: nvcr.io/nvidia/vllm:25.11-py3. Keep nvcr.io/nvidia/vllm:25.12-py3 as the fallback lead if 25.11 misbehaves.';
  const s2 = sub.assistant([say(subFinal)], 'end_turn', { input: 3, cacheCreate: 1_203, cacheRead: 9_412, output: 311 });

  // The parent mirrors the subagent's assistant records as agent_progress while it runs.
  for (const line of sub.lines) {
    if (line.type !== 'assistant') continue;
    w.progress(
      {
        message: { type: 'assistant', message: line.message, uuid: line.uuid, timestamp: line.timestamp },
        normalizedMessages: [],
        type: 'agent_progress',
        prompt: taskPrompt,
        agentId,
      },
      `agent_msg_01${ids.alnum(22)}`,
      taskId,
      String(line.timestamp),
    );
  }

  // The user types a follow-up while the subagent runs: it is queued.
  const followUp = 'also make sure the server comes back by itself if the Spark reboots';
  w.raw({ type: 'queue-operation', operation: 'enqueue', timestamp: clock.tick(412), sessionId, content: followUp });

  clock.tick(1_207);
  w.toolResult(taskId, a10[2] ?? '', [{ type: 'text', text: subFinal }], false, {
    status: 'completed',
    prompt: taskPrompt,
    agentId,
    content: [{ type: 'text', text: subFinal }],
    totalDurationMs: 19_910,
    totalTokens: 21_741,
    totalToolUseCount: 2,
    usage: { input_tokens: 6, cache_creation_input_tokens: 10_615, cache_read_input_tokens: 9_412, output_tokens: 713, service_tier: 'standard' },
  });
  void s2;

  // A10: pivot inside the framework's versions: 25.11 probe.
  clock.tick(5_006);
  const probeId = w.toolUseId();
  const a11 = w.assistant(
    [
      thinking(
        w,
        'Same framework, newer NVIDIA build: 25.11 is the first tag whose notes claim GB10 support. 25.12 is newer still but I only need one that works; 25.11 is the documented fix, so try it and keep 25.12 as a fallback. Probe cheaply first: pull, then ask PyTorch inside the image for its arch list and the device capability before spending minutes on a model load.',
      ),
      toolUse(probeId, 'Bash', {
        command: `ssh ${SPARK} 'docker pull -q nvcr.io/nvidia/vllm:25.11-py3 && docker run --rm --gpus all nvcr.io/nvidia/vllm:25.11-py3 python3 -c "import torch, vllm; print(vllm.__version__); print(torch.__version__); print(torch.cuda.get_arch_list()); print(torch.cuda.get_device_capability())"'`,
        description: 'Pull NGC 25.11 and probe its CUDA arch list',
        timeout: 600000,
      }),
    ],
    'tool_use',
    { input: 6, cacheCreate: 1_033, cacheRead: 41_457, output: 388 },
  );
  const probeStart = clock.ms;
  bashProgress(w, probeId, 0, probeStart, 60, '');
  bashProgress(w, probeId, 1, probeStart, 240, '');
  clock.ms = probeStart + 291_447;
  w.raw({ type: 'queue-operation', operation: 'remove', timestamp: clock.iso(), sessionId });
  const probe = bashOk(
    w,
    [
      'nvcr.io/nvidia/vllm:25.11-py3',
      '',
      '==========',
      '== vLLM ==',
      '==========',
      '',
      'NVIDIA Release 25.11 (build 231070212)',
      'vLLM Version 0.11.0+582e4e37.nv25.11',
      '',
      '0.11.0+582e4e37.nv25.11',
      '2.9.0a0+50eac811a6.nv25.11',
      "['sm_80', 'sm_86', 'sm_90', 'sm_100', 'sm_110', 'sm_120', 'sm_121', 'compute_121']",
      '(12, 1)',
    ].join('\n'),
  );
  w.toolResult(probeId, a11[1] ?? '', probe.content, false, probe.result);
  clock.tick(18);
  w.attachment({ type: 'queued_command', prompt: followUp, commandMode: 'prompt' });

  // A11: positive probe → detached serve, with a restart policy for the queued request.
  clock.tick(4_470);
  const serveId = w.toolUseId();
  const a12 = w.assistant(
    [
      say(
        'Probe positive: `nvcr.io/nvidia/vllm:25.11-py3` ships PyTorch with `sm_121` in its arch list and sees the GB10 as (12, 1). Starting the server detached, with `--restart unless-stopped` so it comes back after a reboot as you asked.',
      ),
      toolUse(serveId, 'Bash', {
        command: `ssh ${SPARK} 'docker run -d --name gptoss --restart unless-stopped --gpus all --ipc=host -p 8000:8000 -v $HOME/.cache/huggingface:/root/.cache/huggingface nvcr.io/nvidia/vllm:25.11-py3 vllm serve openai/gpt-oss-120b --host 0.0.0.0 --port 8000 --gpu-memory-utilization 0.85 --max-model-len 32768'`,
        description: 'Start vLLM 25.11 server detached',
      }),
    ],
    'tool_use',
    { input: 6, cacheCreate: 962, cacheRead: 42_490, output: 402 },
  );
  clock.tick(1_911);
  const started = bashOk(w, ids.hex(64));
  w.toolResult(serveId, a12[1] ?? '', started.content, false, started.result);

  clock.tick(3_207);
  const healthId = w.toolUseId();
  const a13 = w.assistant(
    [
      toolUse(healthId, 'Bash', {
        command: `ssh ${SPARK} 'for i in $(seq 1 60); do code=$(curl -s -o /dev/null -w "%{http_code}" localhost:8000/health); [ "$code" = 200 ] && break; sleep 10; done; echo "health: $code"; docker logs --tail 3 gptoss'`,
        description: 'Wait for the server health check',
        timeout: 600000,
      }),
    ],
    'tool_use',
    { input: 6, cacheCreate: 498, cacheRead: 43_452, output: 188 },
  );
  const healthStart = clock.ms;
  bashProgress(w, healthId, 0, healthStart, 120, '');
  bashProgress(w, healthId, 1, healthStart, 300, '');
  clock.ms = healthStart + 431_842;
  const healthy = bashOk(
    w,
    'health: 200\n(APIServer pid=1) INFO:     Started server process [1]\n(APIServer pid=1) INFO:     Waiting for application startup.\n(APIServer pid=1) INFO:     Application startup complete.',
  );
  w.toolResult(healthId, a13[0] ?? '', healthy.content, false, healthy.result);

  // A12: two parallel checks in one response.
  clock.tick(3_880);
  const modelsId = w.toolUseId();
  const chatId = w.toolUseId();
  const a14 = w.assistant(
    [
      toolUse(modelsId, 'Bash', { command: `ssh ${SPARK} 'curl -s localhost:8000/v1/models'`, description: 'List served models' }),
      toolUse(chatId, 'Bash', {
        command: `ssh ${SPARK} 'curl -s localhost:8000/v1/chat/completions -H "Content-Type: application/json" -d "{\\"model\\":\\"openai/gpt-oss-120b\\",\\"messages\\":[{\\"role\\":\\"user\\",\\"content\\":\\"Reply with the single word: ready\\"}],\\"max_tokens\\":64}"'`,
        description: 'Send a test chat completion',
      }),
    ],
    'tool_use',
    { input: 6, cacheCreate: 341, cacheRead: 43_950, output: 274 },
    280,
  );
  clock.tick(611);
  const models = bashOk(
    w,
    '{"object":"list","data":[{"id":"openai/gpt-oss-120b","object":"model","created":1771320690,"owned_by":"vllm","root":"openai/gpt-oss-120b","parent":null,"max_model_len":32768}]}',
  );
  w.toolResult(modelsId, a14[0] ?? '', models.content, false, models.result);
  clock.tick(2_344);
  const chat = bashOk(
    w,
    '{"id":"chatcmpl-5b0f1c2e9a7d4f3b","object":"chat.completion","created":1771320692,"model":"openai/gpt-oss-120b","choices":[{"index":0,"message":{"role":"assistant","content":"ready","reasoning_content":"The user wants one word."},"finish_reason":"stop"}],"usage":{"prompt_tokens":72,"completion_tokens":19,"total_tokens":91}}',
  );
  w.toolResult(chatId, a14[1] ?? '', chat.content, false, chat.result);

  clock.tick(6_115);
  const final =
    '`openai/gpt-oss-120b` is serving on the Spark at `10.20.0.5:8000` (OpenAI-compatible API), from `nvcr.io/nvidia/vllm:25.11-py3`, container `gptoss`, restart policy `unless-stopped`.\n\n' +
    'What I ruled out:\n' +
    '- `vllm/vllm-openai:v0.10.1` — no linux/arm64 manifest; the upstream image is amd64-only.\n' +
    '- `nvcr.io/nvidia/vllm:25.09-py3` — its PyTorch lacks sm_121 kernels, so engine start-up fails with "no kernel image is available for execution on the device".\n\n' +
    'Not tried: `nvcr.io/nvidia/vllm:25.12-py3` (newer, also arm64) — a fallback if 25.11 gives trouble.\n\n' +
    'Checks: `/health` returns 200, `/v1/models` lists the model, and a test chat completion answered "ready".';
  const a15 = w.assistant([say(final)], 'end_turn', { input: 6, cacheCreate: 652, cacheRead: 44_291, output: 396 });
  clock.tick(41);
  const conversation = w.lines.filter((l) => l.type === 'user' || l.type === 'assistant').length;
  w.system('turn_duration', { durationMs: clock.ms - Date.parse('2026-02-17T09:02:11.455Z'), messageCount: conversation });
  const leaf = a15[0] ?? '';
  w.raw({ type: 'last-prompt', lastPrompt: goal, leafUuid: leaf, sessionId });
  w.raw({ type: 'ai-title', aiTitle: 'Deploy gpt-oss-120b on DGX Spark with NGC vLLM', sessionId });

  const summary = w.lines[0];
  if (summary !== undefined) {
    summary.summary = 'Deploy gpt-oss-120b on GB10 Spark with NGC vLLM 25.11';
    summary.leafUuid = leaf;
  }

  const projectDir = join(FIXTURES, 'claude', 'projects', '-home-ops-gptoss');
  const mainPath = join(projectDir, `${sessionId}.jsonl`);
  const subPath = join(projectDir, sessionId, 'subagents', `agent-${agentId}.jsonl`);
  TREES.push({
    agent: 'claude',
    file: rel(mainPath, 'claude'),
    sessionId,
    parentSessionId: null,
    spawnedBy: null,
    format: 'claude-jsonl (2.1-era: progress, attachment, queue-operation, subagents/ layout)',
    goal: 'Serve openai/gpt-oss-120b with an OpenAI-compatible API on the GB10 DGX Spark at 10.20.0.5 (vLLM in Docker, port 8000)',
    goalExcerpt: 'get openai/gpt-oss-120b serving an OpenAI-compatible API',
    candidates: [
      {
        kind: 'image',
        name: 'vllm/vllm-openai:v0.10.1',
        verdict: 'rejected',
        reason: 'no linux/arm64 manifest: the upstream image is amd64-only and cannot run on the Spark',
        evidence: { callId: upId, excerpt: 'no matching manifest for linux/arm64/v8 in the manifest list entries' },
        reasonExcerpt: 'the upstream image ships amd64 only and cannot run on the Spark',
      },
      {
        kind: 'image',
        name: 'nvcr.io/nvidia/vllm:25.09-py3',
        verdict: 'rejected',
        reason: "the image's PyTorch has no sm_121 kernels, so engine start-up fails on the GB10",
        evidence: { callId: serve909Id, excerpt: 'CUDA error: no kernel image is available for execution on the device' },
        reasonExcerpt: 'because its PyTorch has no sm_121 kernels',
      },
      {
        kind: 'image',
        name: 'nvcr.io/nvidia/vllm:25.10-py3',
        verdict: 'untested',
        reason: 'catalog check: release notes still list the Spark as preview, no sm_121 claim; never pulled',
        evidence: { callId: taskId, excerpt: 'Spark still "preview", no sm_121 claim' },
        reasonExcerpt: '25.11 is the first tag whose notes claim GB10 support',
      },
      {
        kind: 'image',
        name: 'nvcr.io/nvidia/vllm:25.11-py3',
        verdict: 'accepted',
        reason: 'PyTorch arch list includes sm_121; server healthy (200) and a test completion answered',
        evidence: { callId: healthId, excerpt: 'health: 200' },
        reasonExcerpt: 'Probe positive: `nvcr.io/nvidia/vllm:25.11-py3` ships PyTorch with `sm_121` in its arch list',
      },
      {
        kind: 'image',
        name: 'nvcr.io/nvidia/vllm:25.12-py3',
        verdict: 'untested',
        reason: 'named by the catalog subagent as the fallback lead; never pulled or run',
        evidence: { callId: taskId, excerpt: 'Keep nvcr.io/nvidia/vllm:25.12-py3 as the fallback lead' },
        reasonExcerpt: 'Not tried: `nvcr.io/nvidia/vllm:25.12-py3`',
      },
    ],
    pivots: [
      { from: 'vllm/vllm-openai:v0.10.1', to: 'nvcr.io/nvidia/vllm:25.09-py3', kind: 'image', note: 'upstream image to NVIDIA\'s NGC build of the same framework (vLLM)' },
      { from: 'nvcr.io/nvidia/vllm:25.09-py3', to: 'nvcr.io/nvidia/vllm:25.11-py3', kind: 'image', note: "inside the framework's versions: a newer NGC monthly build with sm_121 kernels" },
    ],
  });
  TREES.push({
    agent: 'claude',
    file: rel(subPath, 'claude'),
    sessionId,
    parentSessionId: sessionId,
    agentId,
    spawnedBy: taskId,
    format: `claude-jsonl subagent (isSidechain, agentId ${agentId})`,
    goal: 'List NGC vLLM tags newer than 25.09-py3 with arm64 and GB10 support, and recommend one',
    goalExcerpt: 'Check the NGC catalog for nvcr.io/nvidia/vllm',
    candidates: [],
    pivots: [],
  });
  return [
    { path: mainPath, lines: w.lines },
    { path: subPath, lines: sub.lines },
  ];
}

// ---------------------------------------------------------------------------------------------
// Claude story B: a short research session (2.0-era layout, agent-<id>.jsonl beside the session)
// ---------------------------------------------------------------------------------------------

function claudeSessionB(): ClaudeOutput[] {
  const ids = new Ids('claude-gptoss-research');
  const clock = new Clock('2025-11-24T15:31:02.207Z');
  const sessionId = ids.uuid();
  const env: ClaudeEnv = {
    sessionId,
    cwd: '/home/ops/gptoss',
    version: '2.0.50',
    gitBranch: 'main',
    model: 'claude-sonnet-4-5-20250929',
    era: '2.0',
  };
  const w = new ClaudeWriter(env, ids, clock);
  const slot = w.lines.length;
  w.raw({ type: 'file-history-snapshot', messageId: '', snapshot: { messageId: '', trackedFileBackups: {}, timestamp: clock.iso() }, isSnapshotUpdate: false });
  clock.tick(22);
  const prompt = `Before we deploy anything: is there an arm64 vLLM image that can run openai/gpt-oss-120b on the Spark (${SPARK})? Research only — don't pull or start anything.`;
  const u = w.human(prompt, { thinkingMetadata: { level: 'high', disabled: false, triggers: [] }, todos: [] });
  const snap = w.lines[slot];
  if (snap !== undefined) {
    snap.messageId = u;
    (snap.snapshot as Line).messageId = u;
  }

  clock.tick(3_114);
  const taskId = w.toolUseId();
  const taskPrompt = 'Find out which vLLM Docker images publish linux/arm64 builds that can serve openai/gpt-oss-120b. Check upstream vllm/vllm-openai (v0.10.1 is the first release with gpt-oss) and NVIDIA NGC nvcr.io/nvidia/vllm. Report tag names and architectures only; do not pull anything.';
  const a1 = w.assistant(
    [say("I'll have a research agent check both registries while I confirm the Spark's architecture."), toolUse(taskId, 'Task', { description: 'Research arm64 vLLM images', prompt: taskPrompt, subagent_type: 'general-purpose' })],
    'tool_use',
    { input: 3, cacheCreate: 18_214, cacheRead: 0, output: 231 },
  );

  const agentId = ids.hex(8);
  const sub = new ClaudeWriter({ ...env, agentId }, ids, clock);
  clock.tick(455);
  sub.human(taskPrompt);
  clock.tick(2_618);
  const searchId = sub.toolUseId();
  const s1 = sub.assistant([toolUse(searchId, 'WebSearch', { query: 'vllm/vllm-openai v0.10.1 arm64 image nvcr.io nvidia vllm arm64 gpt-oss' })], 'tool_use', {
    input: 3,
    cacheCreate: 7_902,
    cacheRead: 0,
    output: 96,
  });
  clock.tick(11_205);
  const links = [
    { title: 'vllm/vllm-openai Tags | Docker Hub', url: 'https://hub.docker.com/r/vllm/vllm-openai/tags' },
    { title: 'vLLM | NVIDIA NGC', url: 'https://catalog.ngc.nvidia.com/orgs/nvidia/containers/vllm' },
  ];
  const summary =
    'Docker Hub lists vllm/vllm-openai:v0.10.1 for linux/amd64 only. NVIDIA NGC publishes nvcr.io/nvidia/vllm:25.09-py3 for linux/amd64 and linux/arm64 with vLLM 0.10.1.1, which includes gpt-oss support.';
  sub.toolResult(searchId, s1[0] ?? '', `Web search results for query: "vllm/vllm-openai v0.10.1 arm64 image nvcr.io nvidia vllm arm64 gpt-oss"\n\nLinks: ${JSON.stringify(links)}\n\n${summary}`, false, {
    query: 'vllm/vllm-openai v0.10.1 arm64 image nvcr.io nvidia vllm arm64 gpt-oss',
    results: [{ tool_use_id: `srvtoolu_01${ids.alnum(22)}`, content: links }, summary],
    durationSeconds: 11.02,
  });
  clock.tick(4_011);
  const subFinal =
    'Upstream vllm/vllm-openai:v0.10.1 is published for linux/amd64 only (per Docker Hub). NVIDIA NGC nvcr.io/nvidia/vllm:25.09-py3 has linux/arm64 and contains vLLM 0.10.1.1 with gpt-oss support. Neither was pulled.';
  sub.assistant([say(subFinal)], 'end_turn', { input: 3, cacheCreate: 612, cacheRead: 7_902, output: 118 });

  clock.tick(733);
  w.toolResult(taskId, a1[1] ?? '', [{ type: 'text', text: subFinal }], false, {
    status: 'completed',
    prompt: taskPrompt,
    agentId,
    content: [{ type: 'text', text: subFinal }],
    totalDurationMs: 18_940,
    totalTokens: 8_631,
    totalToolUseCount: 1,
    usage: { input_tokens: 6, cache_creation_input_tokens: 8_514, cache_read_input_tokens: 7_902, output_tokens: 214, service_tier: 'standard' },
  });

  clock.tick(2_950);
  const archId = w.toolUseId();
  const a2 = w.assistant([toolUse(archId, 'Bash', { command: `ssh ${SPARK} 'uname -m; nvidia-smi -L'`, description: 'Confirm Spark architecture and GPU' })], 'tool_use', {
    input: 6,
    cacheCreate: 488,
    cacheRead: 18_214,
    output: 102,
  });
  clock.tick(1_402);
  const arch = bashOk(w, `aarch64\nGPU 0: NVIDIA GB10 (UUID: GPU-${ids.uuid()})`);
  w.toolResult(archId, a2[0] ?? '', arch.content, false, arch.result);

  clock.tick(5_660);
  w.assistant(
    [
      say(
        'The Spark is aarch64 with a GB10, so an amd64-only image is out. From the research (nothing pulled or run):\n' +
          '- `vllm/vllm-openai:v0.10.1` — Docker Hub lists amd64 only; would not run here.\n' +
          '- `nvcr.io/nvidia/vllm:25.09-py3` — arm64 build with vLLM 0.10.1.1 (gpt-oss support). This is the one to try first when we deploy.',
      ),
    ],
    'end_turn',
    { input: 6, cacheCreate: 310, cacheRead: 18_702, output: 187 },
  );

  const projectDir = join(FIXTURES, 'claude', 'projects', '-home-ops-gptoss');
  const mainPath = join(projectDir, `${sessionId}.jsonl`);
  const subPath = join(projectDir, `agent-${agentId}.jsonl`);
  TREES.push({
    agent: 'claude',
    file: rel(mainPath, 'claude'),
    sessionId,
    parentSessionId: null,
    spawnedBy: null,
    format: 'claude-jsonl (2.0-era: agent-<id>.jsonl beside the session)',
    goal: 'Find an arm64 vLLM image that can run openai/gpt-oss-120b on the Spark (research only, nothing pulled)',
    goalExcerpt: 'is there an arm64 vLLM image that can run openai/gpt-oss-120b on the Spark',
    candidates: [
      {
        kind: 'image',
        name: 'vllm/vllm-openai:v0.10.1',
        verdict: 'untested',
        reason: 'research says the upstream tag is published for linux/amd64 only; never pulled',
        evidence: { callId: taskId, excerpt: 'is published for linux/amd64 only' },
        reasonExcerpt: 'Docker Hub lists amd64 only; would not run here',
      },
      {
        kind: 'image',
        name: 'nvcr.io/nvidia/vllm:25.09-py3',
        verdict: 'untested',
        reason: 'recommended as the first image to try (arm64, vLLM 0.10.1.1); not pulled in this session',
        evidence: { callId: taskId, excerpt: 'nvcr.io/nvidia/vllm:25.09-py3 has linux/arm64' },
        reasonExcerpt: 'This is the one to try first when we deploy',
      },
    ],
    pivots: [],
  });
  TREES.push({
    agent: 'claude',
    file: rel(subPath, 'claude'),
    sessionId,
    parentSessionId: sessionId,
    agentId,
    spawnedBy: taskId,
    format: `claude-jsonl subagent, old layout (isSidechain, agentId ${agentId})`,
    goal: 'Find which vLLM Docker images publish linux/arm64 builds for gpt-oss-120b',
    goalExcerpt: 'Find out which vLLM Docker images publish linux/arm64 builds',
    candidates: [],
    pivots: [],
  });
  return [
    { path: mainPath, lines: w.lines },
    { path: subPath, lines: sub.lines },
  ];
}

// ---------------------------------------------------------------------------------------------
// Codex writer
// ---------------------------------------------------------------------------------------------

class CodexWriter {
  readonly lines: Line[] = [];
  private totals = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  constructor(
    readonly ids: Ids,
    readonly clock: Clock,
  ) {}

  push(type: string, payload: Line): void {
    this.lines.push({ timestamp: this.clock.iso(), type, payload });
  }
  item(payload: Line): void {
    this.push('response_item', payload);
  }
  event(payload: Line): void {
    this.push('event_msg', payload);
  }
  callId(): string {
    return `call_${this.ids.alnum(24)}`;
  }
  encrypted(): string {
    return `gAAAAABp${this.ids.b64(360)}==`;
  }

  user(text: string): void {
    this.item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
    this.event({ type: 'user_message', message: text, images: [], local_images: [], text_elements: [] });
  }
  assistant(text: string, phase: 'commentary' | 'final_answer'): void {
    this.item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }], phase });
    this.event({ type: 'agent_message', message: text, phase });
  }
  reasoning(summary: string): void {
    this.item({ type: 'reasoning', summary: [{ type: 'summary_text', text: summary }], content: null, encrypted_content: this.encrypted() });
    this.event({ type: 'agent_reasoning', text: summary });
  }
  functionCall(name: string, args: Line, callId: string): void {
    this.item({ type: 'function_call', name, arguments: JSON.stringify(args), call_id: callId });
  }
  output(callId: string, output: string): void {
    this.item({ type: 'function_call_output', call_id: callId, output });
  }
  /** token_count after each sampling request: cumulative totals plus the last request's delta. */
  tokens(input: number, cached: number, output: number, reasoning: number, window = 272_000): void {
    const last = { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output };
    this.totals = {
      input_tokens: this.totals.input_tokens + input,
      cached_input_tokens: this.totals.cached_input_tokens + cached,
      output_tokens: this.totals.output_tokens + output,
      reasoning_output_tokens: this.totals.reasoning_output_tokens + reasoning,
      total_tokens: this.totals.total_tokens + input + output,
    };
    const used = Math.min(99, Math.round(this.totals.total_tokens / 9_000));
    this.event({
      type: 'token_count',
      info: { total_token_usage: { ...this.totals }, last_token_usage: last, model_context_window: window },
      rate_limits: {
        primary: { used_percent: used, window_minutes: 300, resets_at: Math.floor(this.clock.ms / 1000) + 11_580 },
        secondary: { used_percent: Math.round(used / 4), window_minutes: 10_080, resets_at: Math.floor(this.clock.ms / 1000) + 402_311 },
        credits: null,
        plan_type: null,
      },
    });
  }
}

/** `shell` on a freeform-output model: plain text with exit code and wall time. */
function freeform(exit: number, wallS: number, body: string, totalLines?: number): string {
  const head = [`Exit code: ${exit}`, `Wall time: ${wallS.toFixed(1)} seconds`];
  if (totalLines !== undefined) head.push(`Total output lines: ${totalLines}`);
  return [...head, 'Output:', body].join('\n');
}

/** `shell` / `local_shell` on a structured-output model: a JSON string with metadata. */
function structured(exit: number, seconds: number, body: string): string {
  return JSON.stringify({ output: body, metadata: { exit_code: exit, duration_seconds: seconds } });
}

/** Unified exec (`exec_command` / `write_stdin`): a chunk, finished or still running. */
function unified(ids: Ids, wallS: number, state: { exit: number } | { session: number }, body: string): string {
  const status = 'exit' in state ? `Process exited with code ${state.exit}` : `Process running with session ID ${state.session}`;
  const tokens = Math.max(1, Math.round(body.length / 4));
  return [`Chunk ID: ${ids.hex(6)}`, `Wall time: ${wallS.toFixed(4)} seconds`, status, `Original token count: ${tokens}`, 'Output:', body].join('\n');
}

const GPU_A = 'ubuntu@172.16.4.11';
const GPU_B = 'ubuntu@172.16.4.12';
const CODEX_SECRET = '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';
const CODEX_CWD = '/home/dana/work/llama70b';

function environmentContext(): string {
  return [
    '<environment_context>',
    `  <cwd>${CODEX_CWD}</cwd>`,
    '  <approval_policy>never</approval_policy>',
    '  <sandbox_mode>danger-full-access</sandbox_mode>',
    '  <network_access>enabled</network_access>',
    '  <shell>bash</shell>',
    '</environment_context>',
  ].join('\n');
}

function sessionMeta(w: CodexWriter, id: string, source: unknown, extra: Line = {}): void {
  w.push('session_meta', {
    id,
    timestamp: w.clock.iso(),
    cwd: CODEX_CWD,
    originator: 'codex_cli_rs',
    cli_version: '0.112.0',
    source,
    model_provider: 'openai',
    ...extra,
    base_instructions: { text: 'You are Codex, a coding agent based on GPT-5. You and the user share the same workspace and collaborate to achieve the user\'s goals.\n\n(… the rest of the built-in prompt, several thousand words, trimmed in this fixture …)' },
    git: { commit_hash: 'd41f9a3c07b2e58a1c96f0e4b7d23a5c8e1f6b90', branch: 'main', repository_url: 'git@github.com:example-ops/llama70b-serving.git' },
  });
}

function turnContext(w: CodexWriter, turnId: string, model: string, effort: string): void {
  w.push('turn_context', {
    turn_id: turnId,
    cwd: CODEX_CWD,
    approval_policy: 'never',
    sandbox_policy: { type: 'danger-full-access' },
    model,
    effort,
    summary: 'auto',
    truncation_policy: { mode: 'tokens', limit: 10_000 },
  });
}

interface CodexOutput {
  path: string;
  lines: Line[];
  /** Write a zstd-compressed copy instead of plain JSONL. */
  zstd?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Codex story: Llama-3.3-70B on two 8×H100 hosts (wrapped format, with a subagent)
// ---------------------------------------------------------------------------------------------

function codexMain(): CodexOutput[] {
  const ids = new Ids('codex-llama70b-main');
  const clock = new Clock('2026-03-11T09:14:03.512Z');
  const w = new CodexWriter(ids, clock);
  const sessionId = ids.uuidv7(clock.ms);
  const fileStamp = '2026-03-11T09-14-03';

  sessionMeta(w, sessionId, 'cli');
  clock.tick(4);
  w.item({
    type: 'message',
    role: 'developer',
    content: [{ type: 'input_text', text: '<permissions instructions>\nFilesystem sandboxing: danger-full-access. Approval policy: never — commands run without asking; never ask the user to approve a command.\n</permissions instructions>' }],
  });
  w.item({
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: `# AGENTS.md instructions for ${CODEX_CWD}\n\n<INSTRUCTIONS>\nThe GPU hosts are reached only over ssh (ubuntu@172.16.4.11 = gpu-a, ubuntu@172.16.4.12 = gpu-b). Never stop containers you did not start.\n</INSTRUCTIONS>` }],
  });
  w.item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: environmentContext() }] });

  // Turn 1 — codex-mini-latest, which calls the built-in local_shell tool.
  const turn1 = ids.uuidv7(clock.ms);
  clock.tick(211);
  w.event({ type: 'task_started', turn_id: turn1, model_context_window: 200_000 });
  turnContext(w, turn1, 'codex-mini-latest', 'medium');
  const goal =
    'Goal: serve meta-llama/Llama-3.3-70B-Instruct behind an OpenAI-compatible endpoint using our two 8×H100 hosts, gpu-a (ubuntu@172.16.4.11) and gpu-b (ubuntu@172.16.4.12). ' +
    'Try TensorRT-LLM first if it installs cleanly, otherwise SGLang. Start by checking how much GPU memory is free on gpu-a.';
  clock.tick(37);
  w.user(goal);
  clock.tick(3_604);
  w.reasoning('**Checking GPU memory on gpu-a**\n\nI will query nvidia-smi on gpu-a for per-GPU memory use before choosing a layout.');
  const lsc = w.callId();
  clock.tick(412);
  w.item({
    type: 'local_shell_call',
    call_id: lsc,
    status: 'completed',
    action: {
      type: 'exec',
      command: ['bash', '-lc', `ssh ${GPU_A} 'nvidia-smi --query-gpu=index,memory.used,memory.total --format=csv,noheader && nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader | head -3'`],
      timeout_ms: 60_000,
      working_directory: CODEX_CWD,
      env: null,
      user: null,
    },
  });
  clock.tick(88);
  w.tokens(9_874, 0, 402, 256, 200_000);
  clock.tick(1_931);
  const gpuALines = Array.from({ length: 8 }, (_, i) => `${i}, ${58_912 + i * 7} MiB, 81559 MiB`).join('\n');
  w.output(
    lsc,
    structured(
      0,
      1.9,
      `${gpuALines}\n48211, python3 -m torch.distributed.run train_sft.py, 58790 MiB\n48212, python3 -m torch.distributed.run train_sft.py, 58790 MiB\n48213, python3 -m torch.distributed.run train_sft.py, 58790 MiB\n`,
    ),
  );
  clock.tick(2_842);
  w.reasoning('**Noting a resident training job**\n\nEvery GPU on gpu-a has about 58.9 GiB of 80 GiB in use by a torch.distributed training job (train_sft.py). Only ~21 GiB per GPU is free there.');
  clock.tick(605);
  w.assistant(
    'gpu-a is busy: all 8 H100s have ~58.9 GiB of 80 GiB in use by a `train_sft.py` job (PIDs 48211…), leaving ~21 GiB free per GPU. Should I leave that job alone?',
    'final_answer',
  );
  clock.tick(71);
  w.tokens(10_601, 9_856, 188, 64, 200_000);
  w.event({ type: 'task_complete', turn_id: turn1, last_agent_message: 'gpu-a is busy: all 8 H100s have ~58.9 GiB of 80 GiB in use by a `train_sft.py` job (PIDs 48211…), leaving ~21 GiB free per GPU. Should I leave that job alone?' });

  // Turn 2 — gpt-5.1-codex: `shell` with freeform "Exit code:" output.
  clock.tick(64_300);
  const turn2 = ids.uuidv7(clock.ms);
  w.event({ type: 'task_started', turn_id: turn2, model_context_window: 272_000 });
  turnContext(w, turn2, 'gpt-5.1-codex', 'high');
  clock.tick(29);
  w.user('Yes, leave the fine-tune running. Go ahead with TensorRT-LLM, then SGLang if that fails.');
  clock.tick(5_117);
  w.reasoning('**Preflight on both hosts**\n\nCheck gpu-b memory, the Python/torch/CUDA stack on gpu-a, and Docker on both, in parallel.');
  const p = [w.callId(), w.callId(), w.callId()];
  const shell = (cmd: string, timeout: number, id: string) => w.functionCall('shell', { command: ['bash', '-lc', cmd], workdir: CODEX_CWD, timeout_ms: timeout }, id);
  clock.tick(377);
  shell(`ssh ${GPU_B} 'nvidia-smi --query-gpu=index,memory.used,memory.total --format=csv,noheader'`, 60_000, p[0] ?? '');
  clock.tick(12);
  shell(`ssh ${GPU_A} 'python3 -c "import torch; print(torch.__version__, torch.version.cuda)"; pip --version; nvcc --version | tail -1'`, 60_000, p[1] ?? '');
  clock.tick(9);
  shell(`ssh ${GPU_A} 'docker --version' && ssh ${GPU_B} 'docker --version'`, 60_000, p[2] ?? '');
  clock.tick(64);
  w.tokens(14_220, 10_496, 611, 320);
  clock.tick(1_488);
  w.output(p[0] ?? '', freeform(0, 1.5, Array.from({ length: 8 }, (_, i) => `${i}, 4 MiB, 81559 MiB`).join('\n')));
  clock.tick(702);
  w.output(p[1] ?? '', freeform(0, 2.2, '2.6.0+cu124 12.4\npip 24.0 from /usr/lib/python3/dist-packages/pip (python 3.12)\nBuild cuda_12.4.r12.4/compiler.34097967_0'));
  clock.tick(311);
  w.output(p[2] ?? '', freeform(0, 2.5, 'Docker version 27.5.1, build 9f9e405\nDocker version 27.5.1, build 9f9e405'));

  clock.tick(4_207);
  w.reasoning('**Trying TensorRT-LLM via pip**\n\ngpu-b is idle; gpu-a has torch 2.6.0 with CUDA 12.4. Install tensorrt_llm from NVIDIA\'s index on gpu-a.');
  const trt = w.callId();
  clock.tick(288);
  shell(`ssh ${GPU_A} 'pip install --user tensorrt_llm==0.17.0 --extra-index-url https://pypi.nvidia.com -c /etc/pip/constraints.txt'`, 900_000, trt);
  clock.tick(61);
  w.tokens(15_902, 14_720, 233, 128);
  clock.tick(48_318);
  w.output(
    trt,
    freeform(
      1,
      48.3,
      [
        'Looking in indexes: https://pypi.org/simple, https://pypi.nvidia.com',
        'Collecting tensorrt_llm==0.17.0',
        '  Downloading https://pypi.nvidia.com/tensorrt-llm/tensorrt_llm-0.17.0-cp312-cp312-linux_x86_64.whl (1480.6 MB)',
        '[... omitted 31 of 57 lines ...]',
        'INFO: pip is looking at multiple versions of tensorrt-llm to determine which version is compatible with other requirements. This could take a while.',
        'ERROR: Cannot install tensorrt_llm==0.17.0 because these package versions have conflicting dependencies.',
        '',
        'The conflict is caused by:',
        '    The user requested torch 2.6.0 (from -c /etc/pip/constraints.txt (line 3))',
        '    tensorrt-llm 0.17.0 depends on torch==2.5.1',
        '',
        'To fix this you could try to:',
        '1. loosen the range of package versions you\'ve specified',
        '2. remove package versions to allow pip to attempt to solve the dependency conflict',
        '',
        'ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts',
      ].join('\n'),
      57,
    ),
  );

  clock.tick(6_410);
  w.reasoning(
    '**Dropping TensorRT-LLM**\n\nThe wheel pins torch==2.5.1 while the host constraints pin torch 2.6.0 for the training stack. Satisfying it means changing the shared Python environment the fine-tune uses, and TRT-LLM would still need an engine build. Not worth it; move to SGLang in a container, which brings its own torch.',
  );
  clock.tick(512);
  w.assistant(
    'TensorRT-LLM is out: `pip install tensorrt_llm==0.17.0` ends in `ResolutionImpossible` — it pins `torch==2.5.1`, and the host constraint file pins torch 2.6.0 for the running fine-tune. I won\'t rewrite the shared Python environment; switching frameworks to SGLang, which runs from its own container.',
    'commentary',
  );
  clock.tick(1_903);
  w.item({ type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'sglang docker Llama-3.3-70B-Instruct tensor parallel multi node --nnodes --dist-init-addr' } });
  clock.tick(2_281);
  w.reasoning('**Pulling SGLang on both hosts**\n\nThe SGLang container lmsysorg/sglang:v0.4.9 supports Llama 3.3 and multi-node tensor parallelism. Pull it on both hosts in parallel.');
  const pullA = w.callId();
  const pullB = w.callId();
  clock.tick(340);
  shell(`ssh ${GPU_A} 'docker pull lmsysorg/sglang:v0.4.9'`, 300_000, pullA);
  clock.tick(11);
  shell(`ssh ${GPU_B} 'docker pull lmsysorg/sglang:v0.4.9'`, 300_000, pullB);
  clock.tick(57);
  w.tokens(17_411, 16_128, 530, 288);
  const sgLayers = ['3f9a0c1d2e4b', '9d8c7b6a5f41', '1e2d3c4b5a69', 'a0b1c2d3e4f5'];
  clock.tick(212_440);
  w.output(
    pullA,
    freeform(0, 212.4, `v0.4.9: Pulling from lmsysorg/sglang\n${sgLayers.map((l) => `${l}: Pull complete`).join('\n')}\nDigest: sha256:${ids.hex(64)}\nStatus: Downloaded newer image for lmsysorg/sglang:v0.4.9\ndocker.io/lmsysorg/sglang:v0.4.9`),
  );
  clock.tick(87_581);
  w.output(
    pullB,
    freeform(124, 300.0, `command timed out after 300000 milliseconds\nv0.4.9: Pulling from lmsysorg/sglang\n${sgLayers.slice(0, 2).map((l) => `${l}: Pull complete`).join('\n')}\n1e2d3c4b5a69: Downloading  7.12GB/11.87GB`),
  );

  clock.tick(3_390);
  w.reasoning('**gpu-b pull timed out**\n\nThe pull on gpu-b was killed at the 300 s limit while still downloading (7.1 of 11.9 GB on the big layer). Docker keeps finished layers, so retry with a longer limit. Meanwhile fetch the weights on gpu-a.');
  const pullB2 = w.callId();
  const hf = w.callId();
  clock.tick(402);
  shell(`ssh ${GPU_B} 'docker pull lmsysorg/sglang:v0.4.9'`, 900_000, pullB2);
  clock.tick(9);
  shell(
    `ssh ${GPU_A} 'HF_TOKEN=${CODEX_SECRET} huggingface-cli download meta-llama/Llama-3.3-70B-Instruct --local-dir /data/models/Llama-3.3-70B-Instruct --exclude "original/*"'`,
    1_800_000,
    hf,
  );
  clock.tick(51);
  w.tokens(18_840, 17_664, 402, 190);
  clock.tick(141_202);
  w.output(pullB2, freeform(0, 141.2, `v0.4.9: Pulling from lmsysorg/sglang\n${sgLayers.slice(0, 2).map((l) => `${l}: Already exists`).join('\n')}\n${sgLayers.slice(2).map((l) => `${l}: Pull complete`).join('\n')}\nDigest: sha256:${ids.hex(64)}\nStatus: Downloaded newer image for lmsysorg/sglang:v0.4.9\ndocker.io/lmsysorg/sglang:v0.4.9`));
  clock.tick(962_991);
  w.output(hf, freeform(0, 1104.2, 'Fetching 50 files: 100%|██████████| 50/50 [18:22<00:00, 22.05s/it]\n/data/models/Llama-3.3-70B-Instruct'));

  clock.tick(4_118);
  w.reasoning('**First SGLang launch: tp 8 on gpu-a**\n\nBF16 70B is ~141 GB, ~17.6 GB per GPU at tp 8. With ~21 GiB free per GPU on gpu-a it is tight; try a foreground launch with a small static memory fraction and see whether it loads.');
  const tp8 = w.callId();
  clock.tick(466);
  shell(
    `ssh ${GPU_A} 'docker run --rm --gpus all --ipc=host --network host -v /data/models:/models lmsysorg/sglang:v0.4.9 python3 -m sglang.launch_server --model-path /models/Llama-3.3-70B-Instruct --served-model-name meta-llama/Llama-3.3-70B-Instruct --tp 8 --mem-fraction-static 0.25 --host 0.0.0.0 --port 30000'`,
    900_000,
    tp8,
  );
  clock.tick(48);
  w.tokens(20_133, 18_944, 377, 240);
  clock.tick(96_402);
  w.output(
    tp8,
    freeform(
      1,
      96.4,
      [
        '[2026-03-11 09:40:06 TP0] Init torch distributed begin.',
        '[... omitted 180 of 212 lines ...]',
        '[2026-03-11 09:41:17 TP3] Load weight begin. avail mem=21.09 GB',
        '[2026-03-11 09:41:35 TP3] Scheduler hit an exception: Traceback (most recent call last):',
        '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 612, in load_model',
        '    self.model = get_model(',
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.75 GiB. GPU 3 has a total capacity of 79.19 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 19.31 GiB memory in use. Of the allocated memory 18.22 GiB is allocated by PyTorch, and 402.11 MiB is reserved by PyTorch but unallocated.',
        '[2026-03-11 09:41:35] Received sigquit from a child process. It usually means the child failed.',
      ].join('\n'),
      212,
    ),
  );
  clock.tick(5_903);
  w.reasoning(
    '**tp 8 cannot fit beside the fine-tune**\n\nThe load died with torch.OutOfMemoryError at ~19.3 GiB per GPU: weights alone need ~17.6 GiB per GPU at tp 8 and the training job leaves ~21 GiB. Spreading over both hosts with tp 16 halves that to ~8.8 GiB per GPU, leaving room for KV cache. Needs the weights on gpu-b and a two-node launch.',
  );
  clock.tick(733);
  const turn2Final =
    'SGLang with `--tp 8` on gpu-a fails: the weight load hits `torch.OutOfMemoryError` (GPU 3 had 1.02 GiB free) because the fine-tune holds ~58.9 GiB per GPU and 70B BF16 needs ~17.6 GiB per GPU at tp 8 before any KV cache. Proposal: keep SGLang but run `--tp 16` across gpu-a and gpu-b (~8.8 GiB of weights per GPU). That needs the weights copied to gpu-b and a two-node launch — OK to proceed?';
  w.assistant(turn2Final, 'final_answer');
  clock.tick(66);
  w.tokens(21_007, 20_096, 402, 318);
  w.event({ type: 'task_complete', turn_id: turn2, last_agent_message: turn2Final });

  // Turn 3 — the user compacts the conversation.
  clock.tick(38_410);
  const turn3 = ids.uuidv7(clock.ms);
  w.event({ type: 'task_started', turn_id: turn3, model_context_window: 272_000 });
  turnContext(w, turn3, 'gpt-5.1-codex', 'high');
  clock.tick(9_822);
  const compactSummary =
    'Deploying meta-llama/Llama-3.3-70B-Instruct on gpu-a (ubuntu@172.16.4.11) and gpu-b (ubuntu@172.16.4.12), 8×H100 each. gpu-a runs a fine-tune (train_sft.py) holding ~58.9 GiB per GPU that must not be touched; gpu-b is idle. ' +
    'TensorRT-LLM 0.17.0 rejected: pip ResolutionImpossible (pins torch==2.5.1 vs host torch 2.6.0 constraint). SGLang chosen: lmsysorg/sglang:v0.4.9 pulled on both hosts (gpu-b needed a retry after a 300 s timeout). Weights at /data/models/Llama-3.3-70B-Instruct on gpu-a only. ' +
    'SGLang --tp 8 on gpu-a rejected: torch.OutOfMemoryError during weight load. Next: copy weights to gpu-b, launch --tp 16 across both hosts (--nnodes 2, --dist-init-addr 172.16.4.11:50000), check /health, send a test completion.';
  w.push('compacted', {
    message: compactSummary,
    replacement_history: [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: goal }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Yes, leave the fine-tune running. Go ahead with TensorRT-LLM, then SGLang if that fails.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: `Summary of the work so far, written before the history was compacted:\n${compactSummary}` }] },
    ],
  });
  w.event({ type: 'context_compacted' });
  clock.tick(14);
  w.tokens(3_310, 0, 0, 0);
  w.event({ type: 'task_complete', turn_id: turn3, last_agent_message: null });

  // Turn 4 — gpt-5.2-codex with unified exec (exec_command / write_stdin) and a subagent.
  clock.tick(22_504);
  const turn4 = ids.uuidv7(clock.ms);
  w.event({ type: 'task_started', turn_id: turn4, model_context_window: 272_000 });
  turnContext(w, turn4, 'gpt-5.2-codex', 'high');
  clock.tick(31);
  w.user('Go with tp 16 across both boxes.');
  clock.tick(4_480);
  w.reasoning('**Copy weights and check the fabric in parallel**\n\nStart the rsync of the weights to gpu-b, and hand the InfiniBand/NCCL check to a helper agent so both run at once.');
  const spawn = w.callId();
  const rsync = w.callId();
  const exec = (cmd: string, yieldMs: number, id: string) => w.functionCall('exec_command', { cmd, workdir: CODEX_CWD, yield_time_ms: yieldMs, max_output_tokens: 6_000 }, id);
  const childPrompt =
    'Check that the InfiniBand link between gpu-a (ubuntu@172.16.4.11) and gpu-b (ubuntu@172.16.4.12) is up and tell me which NCCL_IB_HCA and NCCL_SOCKET_IFNAME values to use for a two-node SGLang --tp 16 launch. Read-only: do not start or stop anything.';
  clock.tick(366);
  w.functionCall('spawn_agent', { message: childPrompt, agent_type: 'explorer' }, spawn);
  clock.tick(14);
  exec(`ssh ${GPU_A} 'rsync -a --info=progress2 /data/models/Llama-3.3-70B-Instruct/ ${GPU_B.replace('ubuntu@', '')}:/data/models/Llama-3.3-70B-Instruct/'`, 600_000, rsync);
  clock.tick(55);
  w.tokens(8_921, 3_200, 588, 301);

  // The child thread: its own rollout file, same date folder, source = subagent thread_spawn.
  const child = codexChild(clock, sessionId, childPrompt);
  const childId = child.id;
  clock.tick(120);
  w.output(spawn, JSON.stringify({ agent_id: childId, nickname: 'Noether' }));
  clock.tick(161_877);
  w.output(rsync, unified(ids, 161.9, { exit: 0 }, '141,253,810,456 100%  872.41MB/s    0:02:34 (xfr#58, to-chk=0/64)\n'));
  clock.tick(2_010);
  const waitCall = w.callId();
  w.functionCall('wait_agent', { targets: [childId], timeout_ms: 120_000 }, waitCall);
  clock.tick(44);
  w.tokens(10_412, 9_472, 96, 40);
  clock.tick(310);
  w.output(waitCall, JSON.stringify({ status: { [childId]: { completed: child.final } }, timed_out: false }));

  clock.tick(3_902);
  w.reasoning('**Two-node launch**\n\nStart node rank 1 on gpu-b first, then rank 0 on gpu-a, both detached, with the NCCL settings the helper found.');
  const rank1 = w.callId();
  const rank0 = w.callId();
  const launch = (rank: number) =>
    `docker run -d --name llama70b-rank${rank} --gpus all --ipc=host --network host --shm-size 32g -e NCCL_IB_HCA=mlx5 -e NCCL_SOCKET_IFNAME=ens10f0np0 -v /data/models:/models lmsysorg/sglang:v0.4.9 python3 -m sglang.launch_server --model-path /models/Llama-3.3-70B-Instruct --served-model-name meta-llama/Llama-3.3-70B-Instruct --tp 16 --nnodes 2 --node-rank ${rank} --dist-init-addr 172.16.4.11:50000 --mem-fraction-static 0.25 --host 0.0.0.0 --port 30000`;
  clock.tick(508);
  exec(`ssh ${GPU_B} '${launch(1)}'`, 30_000, rank1);
  clock.tick(10);
  exec(`ssh ${GPU_A} '${launch(0)}'`, 30_000, rank0);
  clock.tick(47);
  w.tokens(11_306, 10_368, 702, 355);
  clock.tick(2_104);
  w.output(rank1, unified(ids, 2.1, { exit: 0 }, `${ids.hex(64)}\n`));
  clock.tick(388);
  w.output(rank0, unified(ids, 2.5, { exit: 0 }, `${ids.hex(64)}\n`));

  clock.tick(2_915);
  const health = w.callId();
  exec(`ssh ${GPU_A} 'until [ "$(curl -s -o /dev/null -w "%{http_code}" localhost:30000/health)" = 200 ]; do sleep 10; done; echo health 200'`, 10_000, health);
  clock.tick(39);
  w.tokens(12_108, 11_392, 133, 48);
  clock.tick(10_012);
  w.output(health, unified(ids, 10.0021, { session: 4117 }, ''));
  clock.tick(1_608);
  const poll = w.callId();
  w.functionCall('write_stdin', { session_id: 4117, chars: '', yield_time_ms: 300_000 }, poll);
  clock.tick(36);
  w.tokens(12_341, 12_160, 41, 16);
  clock.tick(187_220);
  w.output(poll, unified(ids, 187.2, { exit: 0 }, 'health 200\n'));

  clock.tick(2_466);
  const test = w.callId();
  exec(
    `ssh ${GPU_A} 'curl -s localhost:30000/v1/chat/completions -H "Content-Type: application/json" -d "{\\"model\\":\\"meta-llama/Llama-3.3-70B-Instruct\\",\\"messages\\":[{\\"role\\":\\"user\\",\\"content\\":\\"Say ok.\\"}],\\"max_tokens\\":8}"'`,
    10_000,
    test,
  );
  clock.tick(42);
  w.tokens(12_590, 12_288, 160, 22);
  clock.tick(1_384);
  w.output(
    test,
    unified(
      ids,
      1.4,
      { exit: 0 },
      '{"id":"0f3c2b1a9e8d4c7b","object":"chat.completion","created":1773222556,"model":"meta-llama/Llama-3.3-70B-Instruct","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":39,"total_tokens":41,"completion_tokens":2}}',
    ),
  );

  clock.tick(3_303);
  const patch = w.callId();
  const runbook = [
    '*** Begin Patch',
    '*** Add File: deploy/llama70b-sglang.md',
    '+# Llama-3.3-70B-Instruct on gpu-a + gpu-b (SGLang, tp 16)',
    '+',
    '+Image: lmsysorg/sglang:v0.4.9. Weights: /data/models/Llama-3.3-70B-Instruct on both hosts.',
    '+Start rank 1 on gpu-b, then rank 0 on gpu-a (`--tp 16 --nnodes 2 --dist-init-addr 172.16.4.11:50000`).',
    '+NCCL_IB_HCA=mlx5, NCCL_SOCKET_IFNAME=ens10f0np0. Endpoint: http://172.16.4.11:30000/v1',
    '+Rejected: TensorRT-LLM 0.17.0 (pip ResolutionImpossible), SGLang --tp 8 on gpu-a (OOM beside the fine-tune).',
    '*** End Patch',
  ].join('\n');
  w.item({ type: 'custom_tool_call', status: 'completed', call_id: patch, name: 'apply_patch', input: runbook });
  clock.tick(40);
  w.tokens(13_012, 12_544, 402, 120);
  clock.tick(187);
  w.item({ type: 'custom_tool_call_output', call_id: patch, output: structured(0, 0.0, 'Success. Updated the following files:\nA deploy/llama70b-sglang.md\n') });

  clock.tick(4_100);
  const final =
    'Llama-3.3-70B-Instruct is serving at http://172.16.4.11:30000/v1 with SGLang `lmsysorg/sglang:v0.4.9`, `--tp 16` across gpu-a (rank 0) and gpu-b (rank 1). `/health` returns 200 and a test chat completion answered "ok"; the fine-tune on gpu-a was not touched.\n\n' +
    'Rejected on the way: TensorRT-LLM 0.17.0 (pip `ResolutionImpossible`, torch pin conflict) and SGLang `--tp 8` on gpu-a alone (`torch.OutOfMemoryError` at weight load). Runbook written to `deploy/llama70b-sglang.md`.';
  w.assistant(final, 'final_answer');
  clock.tick(58);
  w.tokens(13_790, 13_312, 318, 96);
  w.event({ type: 'task_complete', turn_id: turn4, last_agent_message: final });

  const dir = join(FIXTURES, 'codex', 'sessions', '2026', '03', '11');
  const mainPath = join(dir, `rollout-${fileStamp}-${sessionId}.jsonl`);
  const childPath = join(dir, `rollout-${child.fileStamp}-${childId}.jsonl`);
  TREES.push({
    agent: 'codex',
    file: rel(mainPath, 'codex'),
    sessionId,
    parentSessionId: null,
    spawnedBy: null,
    format: 'codex-jsonl wrapped {timestamp,type,payload}; shell (freeform), local_shell_call (structured), exec_command (unified exec)',
    goal: 'Serve meta-llama/Llama-3.3-70B-Instruct behind an OpenAI-compatible endpoint on gpu-a and gpu-b (8×H100 each)',
    goalExcerpt: 'serve meta-llama/Llama-3.3-70B-Instruct behind an OpenAI-compatible endpoint',
    candidates: [
      {
        kind: 'framework',
        name: 'TensorRT-LLM (pip install tensorrt_llm==0.17.0)',
        verdict: 'rejected',
        reason: 'pip ResolutionImpossible: the wheel pins torch==2.5.1 against the host constraint torch 2.6.0',
        evidence: { callId: trt, excerpt: 'ERROR: ResolutionImpossible' },
        reasonExcerpt: 'TensorRT-LLM is out',
      },
      {
        kind: 'framework',
        name: 'SGLang',
        verdict: 'accepted',
        reason: 'served the model with --tp 16 over both hosts; /health 200 and a test completion answered',
        evidence: { callId: poll, excerpt: 'health 200' },
        reasonExcerpt: 'switching frameworks to SGLang',
      },
      {
        kind: 'image',
        name: 'lmsysorg/sglang:v0.4.9',
        verdict: 'accepted',
        reason: 'pulled on both hosts (gpu-b after one timed-out attempt) and used for the working launch',
        evidence: { callId: pullB2, excerpt: 'Status: Downloaded newer image for lmsysorg/sglang:v0.4.9' },
        reasonExcerpt: 'with SGLang `lmsysorg/sglang:v0.4.9`',
      },
      {
        kind: 'approach',
        name: 'SGLang --tp 8 on gpu-a',
        verdict: 'rejected',
        reason: 'torch.OutOfMemoryError at weight load: the resident fine-tune leaves ~21 GiB per GPU',
        evidence: { callId: tp8, excerpt: 'torch.OutOfMemoryError: CUDA out of memory' },
        reasonExcerpt: 'SGLang with `--tp 8` on gpu-a fails',
      },
      {
        kind: 'approach',
        name: 'SGLang --tp 16 across gpu-a and gpu-b',
        verdict: 'accepted',
        reason: 'two-node launch healthy (200) and answered a test chat completion',
        evidence: { callId: test, excerpt: '"content":"ok"' },
        reasonExcerpt: '`--tp 16` across gpu-a (rank 0) and gpu-b (rank 1)',
      },
    ],
    pivots: [
      { from: 'TensorRT-LLM (pip install tensorrt_llm==0.17.0)', to: 'SGLang', kind: 'framework', note: 'between frameworks, after the pip resolver failure' },
      { from: 'SGLang --tp 8 on gpu-a', to: 'SGLang --tp 16 across gpu-a and gpu-b', kind: 'approach', note: 'inside SGLang: spread the weights over both hosts after the OOM' },
    ],
  });
  TREES.push({
    agent: 'codex',
    file: rel(childPath, 'codex'),
    sessionId: childId,
    parentSessionId: sessionId,
    spawnedBy: spawn,
    format: 'codex-jsonl wrapped, subagent thread (session_meta.source.subagent.thread_spawn)',
    goal: 'Check the InfiniBand link between gpu-a and gpu-b and give NCCL_IB_HCA / NCCL_SOCKET_IFNAME values',
    goalExcerpt: 'Check that the InfiniBand link between gpu-a',
    candidates: [],
    pivots: [],
  });
  return [
    { path: mainPath, lines: w.lines },
    { path: childPath, lines: child.lines },
  ];
}

/** The helper thread spawned by spawn_agent: written to its own rollout file. */
function codexChild(parentClock: Clock, parentId: string, prompt: string): { id: string; lines: Line[]; final: string; fileStamp: string } {
  const ids = new Ids('codex-llama70b-child');
  const clock = new Clock(parentClock.iso());
  clock.tick(35);
  const w = new CodexWriter(ids, clock);
  const id = ids.uuidv7(clock.ms);
  const fileStamp = clock.iso().slice(0, 19).replace(/:/g, '-');
  sessionMeta(w, id, { subagent: { thread_spawn: { parent_thread_id: parentId, depth: 1, agent_path: null, agent_nickname: 'Noether', agent_role: 'explorer' } } }, { agent_nickname: 'Noether', agent_role: 'explorer' });
  clock.tick(6);
  const turn = ids.uuidv7(clock.ms);
  w.event({ type: 'task_started', turn_id: turn, model_context_window: 272_000 });
  turnContext(w, turn, 'gpt-5.2-codex', 'medium');
  clock.tick(12);
  w.user(prompt);
  clock.tick(3_211);
  w.reasoning('**Reading IB state on both hosts**\n\nRun ibstat and list the netdevs on both hosts in parallel; nothing here changes state.');
  const a = w.callId();
  const b = w.callId();
  const exec = (cmd: string, callId: string) => w.functionCall('exec_command', { cmd, workdir: CODEX_CWD, yield_time_ms: 10_000, max_output_tokens: 4_000 }, callId);
  const probe = "ibstat | grep -E \"^CA|State:|Rate:\" | head -9; ip -br link | grep -E \"^ens10\"";
  clock.tick(280);
  exec(`ssh ${GPU_A} '${probe}'`, a);
  clock.tick(9);
  exec(`ssh ${GPU_B} '${probe}'`, b);
  clock.tick(40);
  w.tokens(7_902, 0, 377, 198);
  const ibOut = (host: string) =>
    `CA 'mlx5_0'\n\t\tState: Active\n\t\tRate: 400\nCA 'mlx5_1'\n\t\tState: Active\n\t\tRate: 400\nCA 'mlx5_2'\n\t\tState: Active\n\t\tRate: 400\nens10f0np0       UP             ${host}\n`;
  clock.tick(1_512);
  w.output(a, unified(ids, 1.5, { exit: 0 }, ibOut('172.16.4.11/24')));
  clock.tick(201);
  w.output(b, unified(ids, 1.7, { exit: 0 }, ibOut('172.16.4.12/24')));
  clock.tick(4_310);
  const final = 'IB is up on both hosts: mlx5_0..mlx5_7 report State: Active at 400 Gb/s (first three shown per host). Use NCCL_IB_HCA=mlx5 and NCCL_SOCKET_IFNAME=ens10f0np0 (the 172.16.4.0/24 interface on both).';
  w.assistant(final, 'final_answer');
  clock.tick(51);
  w.tokens(8_604, 7_808, 121, 40);
  w.event({ type: 'task_complete', turn_id: turn, last_agent_message: final });
  return { id, lines: w.lines, final, fileStamp };
}

// ---------------------------------------------------------------------------------------------
// Codex: an older unwrapped rollout, and a short wrapped one shipped zstd-compressed
// ---------------------------------------------------------------------------------------------

function codexLegacy(): CodexOutput {
  const ids = new Ids('codex-legacy-vllm-check');
  const clock = new Clock('2025-09-02T16:40:11.052Z');
  const id = ids.uuid();
  const lines: Line[] = [];
  lines.push({
    id,
    timestamp: clock.iso(),
    instructions: null,
    git: { commit_hash: '8c2e47b1d09f3a6e5c7b2d1f0a9e8d7c6b5a4f32', branch: 'main', repository_url: 'git@github.com:example-ops/llama70b-serving.git' },
  });
  lines.push({ record_type: 'state' });
  lines.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: environmentContext().replace('never', 'on-request') }] });
  lines.push({
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: 'Does gpu-a (ubuntu@172.16.4.11) already have a vLLM install we could reuse for Llama-3.3-70B? Just look, change nothing.' }],
  });
  lines.push({ record_type: 'state' });
  lines.push({ type: 'reasoning', summary: [{ type: 'summary_text', text: '**Looking for vLLM on gpu-a**\n\nCheck pip for vllm and the torch build.' }], encrypted_content: `gAAAAABo${ids.b64(300)}==` });
  const c1 = `call_${ids.alnum(24)}`;
  const c2 = `call_${ids.alnum(24)}`;
  lines.push({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', `ssh ${GPU_A} 'pip show vllm'`], timeout_ms: 60_000 }), call_id: c1 });
  lines.push({ type: 'function_call_output', call_id: c1, output: structured(1, 1.4, 'WARNING: Package(s) not found: vllm\n') });
  lines.push({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', `ssh ${GPU_A} 'python3 -c "import torch; print(torch.__version__)"'`], timeout_ms: 60_000 }), call_id: c2 });
  lines.push({ type: 'function_call_output', call_id: c2, output: structured(0, 2.1, '2.6.0+cu124\n') });
  lines.push({
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'No reusable vLLM on gpu-a: `pip show vllm` finds no such package (exit 1). The host only has torch 2.6.0+cu124 for the training stack, so a vLLM deployment would have to bring its own environment (e.g. a container).' }],
  });
  lines.push({ record_type: 'state' });
  const stamp = '2025-09-02T16-40-11';
  const path = join(FIXTURES, 'codex', 'sessions', '2025', '09', '02', `rollout-${stamp}-${id}.jsonl`);
  TREES.push({
    agent: 'codex',
    file: rel(path, 'codex'),
    sessionId: id,
    parentSessionId: null,
    spawnedBy: null,
    format: 'codex-jsonl legacy unwrapped (header line, record_type:state, bare items); shell with structured JSON output',
    goal: 'Find out whether gpu-a already has a vLLM install that could be reused for Llama-3.3-70B',
    goalExcerpt: 'already have a vLLM install we could reuse',
    candidates: [
      {
        kind: 'framework',
        name: 'vLLM (host pip install on gpu-a)',
        verdict: 'rejected',
        reason: 'not installed: pip show vllm finds no package (exit 1)',
        evidence: { callId: c1, excerpt: 'WARNING: Package(s) not found: vllm' },
        reasonExcerpt: 'No reusable vLLM on gpu-a',
      },
    ],
    pivots: [],
  });
  return { path, lines };
}

function codexCompressed(): CodexOutput {
  const ids = new Ids('codex-llama70b-recheck');
  const clock = new Clock('2026-03-12T08:05:51.730Z');
  const w = new CodexWriter(ids, clock);
  const id = ids.uuidv7(clock.ms);
  sessionMeta(w, id, 'cli');
  w.item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: environmentContext() }] });
  const turn = ids.uuidv7(clock.ms);
  clock.tick(180);
  w.event({ type: 'task_started', turn_id: turn, model_context_window: 272_000 });
  turnContext(w, turn, 'gpt-5.2-codex', 'medium');
  clock.tick(22);
  w.user('Is the Llama endpoint on gpu-a still healthy?');
  clock.tick(2_904);
  w.reasoning('**Checking the endpoint**\n\nHit /health and /v1/models on gpu-a.');
  const c = w.callId();
  clock.tick(211);
  w.functionCall('exec_command', { cmd: `ssh ${GPU_A} 'curl -s -w "\\n%{http_code}\\n" localhost:30000/health; curl -s localhost:30000/v1/models'`, workdir: CODEX_CWD, yield_time_ms: 10_000, max_output_tokens: 2_000 }, c);
  clock.tick(38);
  w.tokens(7_640, 0, 166, 64);
  clock.tick(702);
  w.output(c, unified(ids, 0.7, { exit: 0 }, '\n200\n{"object":"list","data":[{"id":"meta-llama/Llama-3.3-70B-Instruct","object":"model","owned_by":"sglang","root":"meta-llama/Llama-3.3-70B-Instruct"}]}\n'));
  clock.tick(1_910);
  const answer = 'Yes: /health on gpu-a returns 200 and /v1/models lists meta-llama/Llama-3.3-70B-Instruct.';
  w.assistant(answer, 'final_answer');
  clock.tick(40);
  w.tokens(7_998, 7_552, 48, 0);
  w.event({ type: 'task_complete', turn_id: turn, last_agent_message: answer });
  const path = join(FIXTURES, 'codex', 'sessions', '2026', '03', '12', `rollout-2026-03-12T08-05-51-${id}.jsonl`);
  TREES.push({
    agent: 'codex',
    file: `${rel(path, 'codex')}.zst`,
    sessionId: id,
    parentSessionId: null,
    spawnedBy: null,
    format: 'codex-jsonl wrapped, stored zstd-compressed (.jsonl.zst)',
    goal: 'Check that the Llama endpoint on gpu-a is still healthy',
    goalExcerpt: 'Is the Llama endpoint on gpu-a still healthy?',
    candidates: [],
    pivots: [],
  });
  return { path, lines: w.lines, zstd: true };
}

// ---------------------------------------------------------------------------------------------
// Writing and checking
// ---------------------------------------------------------------------------------------------

function toText(lines: Line[]): string {
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

function write(out: { path: string; lines: Line[]; zstd?: boolean }): void {
  mkdirSync(dirname(out.path), { recursive: true });
  if (out.zstd === true) {
    writeFileSync(out.path, toText(out.lines));
    execFileSync('zstd', ['-q', '-f', '-19', '--rm', out.path, '-o', `${out.path}.zst`]);
  } else {
    writeFileSync(out.path, toText(out.lines));
  }
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else if (name.endsWith('.jsonl') || name.endsWith('.jsonl.zst')) out.push(full);
  }
  return out.sort();
}

function readLines(path: string): Line[] {
  // Reading back uses the same decoder the adapters ship (fzstd), so --check needs no zstd binary.
  const text = path.endsWith('.zst') ? Buffer.from(decompress(readFileSync(path))).toString('utf8') : readFileSync(path, 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l, i) => {
      try {
        return JSON.parse(l) as Line;
      } catch (cause) {
        throw new Error(`${relative(ROOT, path)}:${i + 1}: not JSON`, { cause });
      }
    });
}

interface Counts {
  file: string;
  lines: number;
  byType: Record<string, number>;
  userPrompts: number;
  assistantMessages: number;
  toolCalls: number;
  byTool: Record<string, number>;
  failed: number;
  timedOut: number;
  parallelGroups: number;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const bump = (m: Record<string, number>, k: string) => {
  m[k] = (m[k] ?? 0) + 1;
};

function checkClaude(path: string, lines: Line[]): Counts {
  const where = relative(FIXTURES, path);
  const c: Counts = { file: where, lines: lines.length, byType: {}, userPrompts: 0, assistantMessages: 0, toolCalls: 0, byTool: {}, failed: 0, timedOut: 0, parallelGroups: 0 };
  const uuids = new Set<string>();
  const calls = new Map<string, string>();
  const answered = new Set<string>();
  const toolsPerMessage = new Map<string, number>();
  let lastTs = 0;
  for (const l of lines) {
    bump(c.byType, str(l.type));
    if (typeof l.uuid === 'string' && l.type !== 'progress') {
      if (uuids.has(l.uuid)) throw new Error(`${where}: duplicate uuid ${l.uuid}`);
      uuids.add(l.uuid);
      const parent = l.parentUuid;
      if (parent !== null && (typeof parent !== 'string' || !uuids.has(parent))) throw new Error(`${where}: parentUuid ${String(parent)} not seen before ${l.uuid}`);
    }
    if (typeof l.timestamp === 'string') {
      const t = Date.parse(l.timestamp);
      if (t + 5_000 < lastTs) throw new Error(`${where}: timestamp goes back at ${l.timestamp}`);
      lastTs = Math.max(lastTs, t);
    }
    const message = l.message as Line | undefined;
    if (l.type === 'user' && message !== undefined) {
      if (typeof message.content === 'string') c.userPrompts++;
      for (const b of Array.isArray(message.content) ? (message.content as Line[]) : []) {
        if (b.type !== 'tool_result') continue;
        const id = str(b.tool_use_id);
        if (!calls.has(id)) throw new Error(`${where}: tool_result ${id} has no tool_use before it`);
        if (calls.get(id) !== l.parentUuid) throw new Error(`${where}: tool_result ${id} parent is not its issuer`);
        answered.add(id);
        if (b.is_error === true) {
          if (str(b.content).startsWith('Command timed out')) c.timedOut++;
          else c.failed++;
        }
      }
    }
    if (l.type === 'attachment' && (l.attachment as Line | undefined)?.type === 'queued_command') c.userPrompts++;
    if (l.type === 'assistant' && message !== undefined) {
      const id = str(message.id);
      if (!toolsPerMessage.has(id)) {
        toolsPerMessage.set(id, 0);
        c.assistantMessages++;
      }
      for (const b of (message.content as Line[]) ?? []) {
        if (b.type !== 'tool_use') continue;
        calls.set(str(b.id), str(l.uuid));
        c.toolCalls++;
        bump(c.byTool, str(b.name));
        toolsPerMessage.set(id, (toolsPerMessage.get(id) ?? 0) + 1);
      }
    }
  }
  for (const id of calls.keys()) if (!answered.has(id)) throw new Error(`${where}: tool_use ${id} never answered`);
  c.parallelGroups = [...toolsPerMessage.values()].filter((n) => n > 1).length;
  return c;
}

function codexExit(output: string): { exit: number | null; timedOut: boolean } {
  if (output.startsWith('{')) {
    try {
      const parsed = JSON.parse(output) as { metadata?: { exit_code?: number }; output?: string };
      const exit = parsed.metadata?.exit_code ?? null;
      return { exit, timedOut: exit === 124 || str(parsed.output).startsWith('command timed out') };
    } catch {
      return { exit: null, timedOut: false };
    }
  }
  const m = /^Exit code: (-?\d+)/.exec(output) ?? /Process exited with code (-?\d+)/.exec(output);
  const exit = m?.[1] === undefined ? null : Number(m[1]);
  return { exit, timedOut: output.includes('\nOutput:\ncommand timed out after ') };
}

function checkCodex(path: string, lines: Line[]): Counts {
  const where = relative(FIXTURES, path);
  const c: Counts = { file: where, lines: lines.length, byType: {}, userPrompts: 0, assistantMessages: 0, toolCalls: 0, byTool: {}, failed: 0, timedOut: 0, parallelGroups: 0 };
  const wrapped = lines[0]?.type === 'session_meta';
  const calls = new Set<string>();
  const answered = new Set<string>();
  let lastTs = 0;
  let pendingCalls = 0;
  for (const [i, l] of lines.entries()) {
    if (wrapped) {
      if (typeof l.timestamp !== 'string') throw new Error(`${where}:${i + 1}: wrapped line without timestamp`);
      const t = Date.parse(l.timestamp);
      if (t < lastTs) throw new Error(`${where}:${i + 1}: timestamp goes back`);
      lastTs = t;
    }
    const p = (wrapped ? l.payload : l) as Line | undefined;
    const kind = wrapped ? `${str(l.type)}${l.type === 'response_item' || l.type === 'event_msg' ? `:${str(p?.type)}` : ''}` : i === 0 ? 'header' : str(l.type) || `record_type:${str(l.record_type)}`;
    bump(c.byType, kind);
    if (p === undefined || (wrapped && l.type !== 'response_item')) continue;
    const t = str(p.type);
    if (t === 'message' && p.role === 'user') {
      const text = str(((p.content as Line[]) ?? [])[0]?.text);
      if (!text.startsWith('<environment_context>') && !text.startsWith('# AGENTS.md')) c.userPrompts++;
    }
    if (t === 'message' && p.role === 'assistant') c.assistantMessages++;
    if (t === 'function_call' || t === 'custom_tool_call' || t === 'local_shell_call') {
      const id = str(p.call_id);
      if (calls.has(id)) throw new Error(`${where}: duplicate call_id ${id}`);
      calls.add(id);
      c.toolCalls++;
      bump(c.byTool, t === 'local_shell_call' ? 'local_shell' : str(p.name));
      pendingCalls++;
      if (pendingCalls === 2) c.parallelGroups++;
    } else if (t === 'web_search_call') {
      c.toolCalls++;
      bump(c.byTool, 'web_search');
    }
    if (t === 'function_call_output' || t === 'custom_tool_call_output') {
      pendingCalls = 0;
      const id = str(p.call_id);
      if (!calls.has(id)) throw new Error(`${where}: output for unknown call_id ${id}`);
      answered.add(id);
      const r = codexExit(str(p.output));
      if (r.timedOut) c.timedOut++;
      else if (r.exit !== null && r.exit !== 0) c.failed++;
    } else if (t !== 'function_call' && t !== 'custom_tool_call' && t !== 'local_shell_call') {
      pendingCalls = 0;
    }
  }
  for (const id of calls) if (!answered.has(id)) throw new Error(`${where}: call ${id} never answered`);
  return c;
}

function countsTable(all: Counts[]): string {
  const rows = all.map((c) => {
    const tools = Object.entries(c.byTool)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    return `| \`${c.file}\` | ${c.lines} | ${c.userPrompts} | ${c.assistantMessages} | ${c.toolCalls} (${tools || '—'}) | ${c.parallelGroups} | ${c.failed} | ${c.timedOut} |`;
  });
  const types = all.map((c) => `- \`${c.file}\`: ${Object.entries(c.byType).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  return [
    '| file | lines | user prompts | assistant messages | tool calls (by tool) | parallel groups | failed | timed out |',
    '| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |',
    ...rows,
    '',
    'Lines by type:',
    '',
    ...types,
  ].join('\n');
}

function refreshReadme(table: string): void {
  const path = join(FIXTURES, 'README.md');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return;
  }
  const begin = '<!-- counts:begin -->';
  const end = '<!-- counts:end -->';
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a < 0 || b < a) return;
  const next = `${text.slice(0, a + begin.length)}\n${table}\n${text.slice(b)}`;
  if (next !== text) writeFileSync(path, next);
}

/** Every excerpt an expected tree names must occur in its file, the evidence one in that call's output. */
function checkExpected(): void {
  for (const agent of ['claude', 'codex'] as const) {
    const expected = JSON.parse(readFileSync(join(FIXTURES, agent, 'expected.json'), 'utf8')) as { sessions: Tree[] };
    for (const t of expected.sessions) {
      const path = join(FIXTURES, agent, t.file);
      const lines = readLines(path);
      const text = lines.map((l) => JSON.stringify(l)).join('\n');
      const has = (s: string) => text.includes(JSON.stringify(s).slice(1, -1));
      if (!has(t.goalExcerpt)) throw new Error(`${t.file}: goal excerpt not found: ${t.goalExcerpt}`);
      for (const c of t.candidates) {
        if (!has(c.reasonExcerpt)) throw new Error(`${t.file}: reason excerpt for ${c.name} not found`);
        const answer = lines.find((l) => JSON.stringify(l).includes(`"${c.evidence.callId}"`) && /tool_result|function_call_output|custom_tool_call_output/.test(JSON.stringify(l)));
        if (answer === undefined) throw new Error(`${t.file}: no output for evidence call ${c.evidence.callId}`);
        if (!JSON.stringify(answer).includes(JSON.stringify(c.evidence.excerpt).slice(1, -1))) throw new Error(`${t.file}: evidence excerpt for ${c.name} not in the output of ${c.evidence.callId}`);
      }
    }
  }
}

function main(): void {
  const checkOnly = process.argv.includes('--check');
  if (!checkOnly) {
    rmSync(join(FIXTURES, 'claude', 'projects'), { recursive: true, force: true });
    rmSync(join(FIXTURES, 'codex', 'sessions'), { recursive: true, force: true });
    for (const out of [...claudeSessionA(), ...claudeSessionB()]) write(out);
    for (const out of [...codexMain(), codexLegacy(), codexCompressed()]) write(out);
  }
  const counts: Counts[] = [];
  // drift/ (scripts/build-drift-fixtures.ts) holds single-shape files of other versions, checked by their own tests.
  for (const f of listFiles(join(FIXTURES, 'claude', 'projects'))) counts.push(checkClaude(f, readLines(f)));
  for (const f of listFiles(join(FIXTURES, 'codex', 'sessions'))) counts.push(checkCodex(f, readLines(f)));
  const table = countsTable(counts);
  if (!checkOnly) {
    for (const agent of ['claude', 'codex'] as const) {
      const trees = TREES.filter((t) => t.agent === agent).map((t) => ({ ...t, counts: counts.find((c) => c.file === `${agent}/${t.file}`) }));
      writeFileSync(join(FIXTURES, agent, 'expected.json'), `${JSON.stringify({ sessions: trees }, null, 2)}\n`);
    }
    refreshReadme(table);
  }
  checkExpected();
  console.log(table);
  console.log(`\nok: ${counts.length} files checked`);
}

main();
