/**
 * Builds the bundled sample session: a reconstruction, in `opencode export` format (v1.2.x), of
 * messages 6556–6573 of the founding session and the two-node deployment that followed.
 * Run: `npx tsx scripts/build-sample.ts` → `sessions/<session id>.json`; `--check` writes nothing
 * and fails when the committed file differs from what this script builds (`npm test` runs it).
 *
 * Deterministic by construction: a fixed base time, a seeded PRNG for the random tails of ids,
 * no Math.random and no Date.now. Ids are built the way opencode's `Identifier.create` builds them
 * (6 bytes of `ms * 0x1000 + counter`, then 14 base62 chars), so message and part ids sort by time
 * and the session id (descending, like opencode's) sorts newest first.
 * Where the seeds quote the assistant, the quote is reproduced verbatim (see QUOTES below).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// ───────────────────────── deterministic sources ─────────────────────────

/** mulberry32: tiny seeded PRNG; the sample must be byte-identical on every run. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(0x5a4b1e);
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const randomBase62 = (length: number): string =>
  Array.from({ length }, () => BASE62[Math.floor(random() * 256) % 62]).join('');
const randomHex = (length: number): string =>
  Array.from({ length }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');
const jitter = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1));

/** opencode's id scheme (packages/opencode/src/id/id.ts), fed explicit timestamps. */
class IdFactory {
  private lastTimestamp = 0;
  private counter = 0;

  create(prefix: 'ses' | 'msg' | 'prt' | 'tool', descending: boolean, timestamp: number): string {
    if (timestamp !== this.lastTimestamp) {
      this.lastTimestamp = timestamp;
      this.counter = 0;
    }
    this.counter++;
    let now = BigInt(timestamp) * 0x1000n + BigInt(this.counter);
    if (descending) now = ~now;
    const bytes = Buffer.alloc(6);
    for (let i = 0; i < 6; i++) bytes[i] = Number((now >> BigInt(40 - 8 * i)) & 0xffn);
    return `${prefix}_${bytes.toString('hex')}${randomBase62(14)}`;
  }
}
const ids = new IdFactory();

// ───────────────────────── fixed facts ─────────────────────────

/** 2026-02-26 13:41:07 UTC: the afternoon the seeds' forum page (published 2026-02-24) was read. */
const BASE_TIME = Date.UTC(2026, 1, 26, 13, 41, 7);
const HEAD = 'aurora@10.1.230.180';
/** Reconstruction: the seeds never give spark-5be3's management address. */
const WORKER = 'aurora@10.1.230.181';
const PROJECT_DIR = '/home/aurora/spark-ops';
const PROJECT_ID = '7c3e91d04b2a58f6e1d9c0a7b3f48e25d6c1a9f0';
const OPENCODE_VERSION = '1.2.6';
const PROVIDER_ID = 'anthropic';
const MODEL_ID = 'claude-opus-4-5';
const SNAPSHOT = '9e4b7a2c1d8f3e6a0b5c7d9e1f2a4b6c8d0e3f5a';
const MODEL = 'Qwen/Qwen3.5-122B-A10B-FP8';
const SERVE_IMAGE = 'hellohal2064/vllm-qwen3.5-gb10';
const BASH_DEFAULT_TIMEOUT = 120_000;

/** Obviously fake secrets, planted so tests can prove redaction; listed in test/fixtures/planted-secrets.json. */
const FAKE_HF_TOKEN = 'hf_FAKEretraceSAMPLEtokenDoNotUse0001';
const FAKE_API_KEY = 'sk-FAKE-retrace-sample-key-0123456789abcdef';
const FAKE_PIP_PASSWORD = 'FAKE-pip-pass-4c1d9e';
const PIP_INDEX = `https://aurora:${FAKE_PIP_PASSWORD}@pypi.spark-lab.internal/simple`;

/** The seeds' verbatim quotes of the assistant (000, 004, 002). */
const QUOTES = {
  memoryBudget:
    "Now I'm checking what FP8 versions are actually available... the model is a MoE architecture, so in FP8 it should be roughly 122GB, which with tensor parallelism across 2 nodes means about 61GB per node—leaving roughly 59GB for KV cache per node.",
  hybridGdn:
    'But wait—the user wants to deploy Qwen3.5-122B-A10B, which is a hybrid GDN model. On the kpro6 setup, we needed SGLang with --attention-backend triton because flashinfer doesn\'t support hybrid GDN architectures.',
  leads:
    "The docker pull timed out (large image). Let me check several promising leads: the scitrera/dgx-spark-sglang image (updated 6 days ago), the forum thread about Qwen3.5 on DGX Spark, and the lmsysorg/sglang:dev-cu13 image. Let me also check if there's an NGC vLLM nightly image.",
  scitrera: 'The scitrera/dgx-spark-sglang:0.5.10rc0 is much newer (SGLang 0.5.10rc0, 6 days old). Let me try that.',
};

// ───────────────────────── export document shapes ─────────────────────────

type JsonObject = { [key: string]: unknown };
interface Tokens {
  input: number;
  output: number;
  reasoning: number;
  cache: { read: number; write: number };
}
interface ExportMessage {
  info: JsonObject;
  parts: JsonObject[];
}

interface ToolSpec {
  tool: string;
  input: JsonObject;
  /** What the process printed (bash) or the MCP server returned, before opencode's own additions. */
  output: string;
  durationMs: number;
  /** bash only: the exit code; null when the tool killed the command. */
  exit?: number | null;
  /** bash only: killed at the default 120 s timeout. */
  timedOut?: boolean;
}

interface AssistantSpec {
  reasoning?: string;
  text?: string;
  tools?: ToolSpec[];
  /** Gap between the previous message's completion and this one's creation. */
  gapMs?: number;
  /** Called with the first tool's start time, so a queued user message can be placed inside this step. */
  onToolStart?: (startedAt: number) => void;
}

/** A bash call run on a Spark: every remote command is `ssh <host> '<remote>'`. */
const bash = (
  host: string,
  remote: string,
  description: string,
  output: string,
  durationMs: number,
  options: { exit?: number | null; timeout?: number; timedOut?: boolean; suffix?: string } = {},
): ToolSpec => {
  const command = `ssh ${host} '${remote}'${options.suffix ?? ''}`;
  // Keys in the tool schema's order, as the model emits them.
  const input: JsonObject = options.timeout === undefined ? { command, description } : { command, timeout: options.timeout, description };
  return {
    tool: 'bash',
    input,
    output,
    durationMs,
    exit: options.timedOut ? null : (options.exit ?? 0),
    timedOut: options.timedOut ?? false,
  };
};

const mcp = (tool: string, input: JsonObject, output: string, durationMs: number): ToolSpec => ({
  tool,
  input,
  output,
  durationMs,
});

// ───────────────────────── opencode behaviours reproduced ─────────────────────────

/** bash tool (v1.1+): the timeout note opencode appends to a killed command's output. */
const TIMEOUT_NOTE = `\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout ${BASH_DEFAULT_TIMEOUT} ms\n</bash_metadata>`;
/** bash tool: metadata.output is capped at 30,000 chars (MAX_METADATA_LENGTH). */
const MAX_METADATA_LENGTH = 30_000;
/** tool/truncation.ts: outputs over 2,000 lines or 50 KB are cut and saved to tool-output/. */
const TRUNCATE_MAX_LINES = 2000;
const TRUNCATE_MAX_BYTES = 50 * 1024;
const TOOL_OUTPUT_DIR = '/home/aurora/.local/share/opencode/tool-output';

function truncateLikeOpencode(
  text: string,
  at: number,
): { content: string; truncated: false } | { content: string; truncated: true; outputPath: string } {
  const lines = text.split('\n');
  const totalBytes = Buffer.byteLength(text, 'utf-8');
  if (lines.length <= TRUNCATE_MAX_LINES && totalBytes <= TRUNCATE_MAX_BYTES) return { content: text, truncated: false };
  const kept: string[] = [];
  let bytes = 0;
  let hitBytes = false;
  for (let i = 0; i < lines.length && i < TRUNCATE_MAX_LINES; i++) {
    const line = lines[i] ?? '';
    const size = Buffer.byteLength(line, 'utf-8') + (i > 0 ? 1 : 0);
    if (bytes + size > TRUNCATE_MAX_BYTES) {
      hitBytes = true;
      break;
    }
    kept.push(line);
    bytes += size;
  }
  const removed = hitBytes ? totalBytes - bytes : lines.length - kept.length;
  const unit = hitBytes ? 'bytes' : 'lines';
  const outputPath = `${TOOL_OUTPUT_DIR}/${ids.create('tool', false, at)}`;
  const hint =
    `The tool call succeeded but the output was truncated. Full output saved to: ${outputPath}\n` +
    'Use the Task tool to have explore agent process this file with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to save context.';
  return { content: `${kept.join('\n')}\n\n...${removed} ${unit} truncated...\n\n${hint}`, truncated: true, outputPath };
}

const estimateTokens = (text: string): number => Math.ceil(text.length / 3.6);

/** claude-opus-4-5 list prices per million tokens, in units of 1e-8 USD so the sum is exact. */
function costOf(tokens: Tokens): number {
  const units =
    tokens.input * 500 + tokens.output * 2500 + tokens.cache.read * 50 + tokens.cache.write * 625 + tokens.reasoning * 2500;
  const whole = Math.floor(units / 1e8);
  const fraction = String(units % 1e8).padStart(8, '0');
  // Decimal.toNumber() in opencode: the double nearest the exact decimal.
  return Number(`${whole}.${fraction}`);
}

// ───────────────────────── the session builder ─────────────────────────

/**
 * Lays objects out as a v1.2 export prints them: opencode rebuilds each row as
 * `{...data, id, sessionID}` (parts: `…, messageID`), so the ids come last.
 */
class SessionBuilder {
  readonly sessionId: string;
  readonly createdAt: number;
  private readonly messages: ExportMessage[] = [];
  private cursor: number;
  private lastUserId = '';
  private contextTokens = 58_214;
  private pendingTokens = 0;

  constructor(start: number) {
    this.createdAt = start;
    this.sessionId = ids.create('ses', true, start);
    this.cursor = start + 1_900;
  }

  /** A user message; `at` places a message typed while a step was still running (opencode queues it). */
  user(text: string, options: { gapMs?: number; at?: number } = {}): void {
    const created = options.at ?? this.cursor + (options.gapMs ?? 45_000);
    const messageId = ids.create('msg', false, created);
    const info: JsonObject = {
      role: 'user',
      time: { created },
      summary: { diffs: [] },
      agent: 'build',
      model: { providerID: PROVIDER_ID, modelID: MODEL_ID },
      id: messageId,
      sessionID: this.sessionId,
    };
    const part: JsonObject = {
      type: 'text',
      text,
      id: ids.create('prt', false, created + 1),
      sessionID: this.sessionId,
      messageID: messageId,
    };
    this.messages.push({ info, parts: [part] });
    this.lastUserId = messageId;
    this.pendingTokens += estimateTokens(text) + 12;
    if (options.at === undefined) this.cursor = created;
  }

  assistant(spec: AssistantSpec): void {
    const created = this.cursor + (spec.gapMs ?? jitter(35, 90));
    const messageId = ids.create('msg', false, created);
    const parts: JsonObject[] = [];
    const partBase = (id: string): JsonObject => ({ id, sessionID: this.sessionId, messageID: messageId });
    let t = created + jitter(1_400, 3_600);

    parts.push({ type: 'step-start', snapshot: SNAPSHOT, ...partBase(ids.create('prt', false, t)) });
    let generated = '';

    if (spec.reasoning !== undefined) {
      const id = ids.create('prt', false, (t += jitter(4, 30)));
      const start = t;
      t += Math.round(spec.reasoning.length * 14) + jitter(200, 900);
      parts.push({ type: 'reasoning', text: spec.reasoning, time: { start, end: t }, ...partBase(id) });
      generated += spec.reasoning;
    }
    if (spec.text !== undefined) {
      const id = ids.create('prt', false, (t += jitter(20, 120)));
      t += Math.round(spec.text.length * 9) + jitter(100, 400);
      // opencode stamps both ends at text-end (processor.ts), so start === end.
      parts.push({ type: 'text', text: spec.text, time: { start: t, end: t }, ...partBase(id) });
      generated += spec.text;
    }

    const tools = spec.tools ?? [];
    let lastEnd = t;
    let toolOutputTokens = 0;
    let firstToolStart: number | null = null;
    for (const tool of tools) {
      const partId = ids.create('prt', false, (t += jitter(30, 160)));
      const inputText = JSON.stringify(tool.input);
      t += Math.round(inputText.length * 2.5) + jitter(120, 380);
      const start = t;
      firstToolStart ??= start;
      const end = start + tool.durationMs;
      lastEnd = Math.max(lastEnd, end);
      generated += inputText;
      const state = this.completedState(tool, start, end);
      toolOutputTokens += estimateTokens(String(state.output));
      parts.push({ type: 'tool', callID: `toolu_01${randomBase62(22)}`, tool: tool.tool, state, ...partBase(partId) });
    }
    if (firstToolStart !== null) spec.onToolStart?.(firstToolStart);

    const finishAt = lastEnd + jitter(12, 60);
    const finish = tools.length > 0 ? 'tool-calls' : 'stop';
    const tokens: Tokens = {
      input: jitter(2, 9),
      output: estimateTokens(generated) + jitter(8, 40),
      reasoning: 0,
      cache: { read: this.contextTokens, write: this.pendingTokens + jitter(40, 160) },
    };
    const cost = costOf(tokens);
    parts.push({
      type: 'step-finish',
      reason: finish,
      snapshot: SNAPSHOT,
      cost,
      tokens,
      ...partBase(ids.create('prt', false, finishAt)),
    });
    const completed = finishAt + jitter(8, 25);

    const info: JsonObject = {
      role: 'assistant',
      time: { created, completed },
      parentID: this.lastUserId,
      modelID: MODEL_ID,
      providerID: PROVIDER_ID,
      mode: 'build',
      agent: 'build',
      path: { cwd: PROJECT_DIR, root: PROJECT_DIR },
      cost,
      tokens,
      finish,
      id: messageId,
      sessionID: this.sessionId,
    };
    this.messages.push({ info, parts });
    this.contextTokens += tokens.cache.write;
    this.pendingTokens = tokens.output + toolOutputTokens;
    this.cursor = completed;
  }

  private completedState(tool: ToolSpec, start: number, end: number): JsonObject {
    if (tool.tool !== 'bash') {
      const truncated = truncateLikeOpencode(tool.output, end);
      return {
        status: 'completed',
        input: tool.input,
        output: truncated.content,
        title: '',
        metadata: truncated.truncated ? { truncated: true, outputPath: truncated.outputPath } : { truncated: false },
        time: { start, end },
        attachments: [],
      };
    }
    const raw = tool.timedOut ? tool.output + TIMEOUT_NOTE : tool.output;
    const truncated = truncateLikeOpencode(raw, end);
    const description = String(tool.input.description);
    const metadata: JsonObject = {
      output: raw.length > MAX_METADATA_LENGTH ? `${raw.slice(0, MAX_METADATA_LENGTH)}\n\n...` : raw,
      exit: tool.exit ?? null,
      description,
      truncated: truncated.truncated,
    };
    if (truncated.truncated) metadata.outputPath = truncated.outputPath;
    return {
      status: 'completed',
      input: tool.input,
      output: truncated.content,
      title: description,
      metadata,
      time: { start, end },
    };
  }

  get now(): number {
    return this.cursor;
  }

  build(title: string): JsonObject {
    const sorted = [...this.messages].sort((a, b) => (String(a.info.id) < String(b.info.id) ? -1 : 1));
    const lastCompleted = Math.max(
      ...this.messages.map((m) => {
        const time = m.info.time as { created: number; completed?: number };
        return time.completed ?? time.created;
      }),
    );
    return {
      info: {
        id: this.sessionId,
        slug: 'steady-harbor',
        projectID: PROJECT_ID,
        directory: PROJECT_DIR,
        title,
        version: OPENCODE_VERSION,
        summary: { additions: 0, deletions: 0, files: 0 },
        time: { created: this.createdAt, updated: lastCompleted + jitter(200, 900) },
      },
      messages: sorted,
    };
  }
}

// ───────────────────────── tool outputs ─────────────────────────

const CUDA_BANNER = (version: string): string =>
  [
    '',
    '==========',
    '== CUDA ==',
    '==========',
    '',
    `CUDA Version ${version}`,
    '',
    'Container image Copyright (c) 2016-2025, NVIDIA CORPORATION & AFFILIATES. All rights reserved.',
    '',
    'This container image and its contents are governed by the NVIDIA Deep Learning Container License.',
    'By pulling and using the container, you accept the terms and conditions of this license:',
    'https://developer.nvidia.com/ngc/nvidia-deep-learning-container-license',
    '',
    'A copy of this license is made available in this container at /NGC-DL-CONTAINER-LICENSE for your convenience.',
    '',
    'WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.',
    '   Use the NVIDIA Container Toolkit to start this container with GPU support; see',
    '   https://docs.nvidia.com/datacenter/cloud-native/ .',
    '',
  ].join('\n');

const PYTORCH_BANNER = [
  '',
  '=============',
  '== PyTorch ==',
  '=============',
  '',
  'NVIDIA Release 26.02 (build 269443100)',
  'PyTorch Version 2.11.0a0+eb65b36',
  'Container image Copyright (c) 2026, NVIDIA CORPORATION & AFFILIATES. All rights reserved.',
  'Copyright (c) 2014-2024 Facebook Inc.',
  'Copyright (c) 2011-2014 Idiap Research Institute (Ronan Collobert)',
  'Copyright (c) 2012-2014 Deepmind Technologies    (Koray Kavukcuoglu)',
  'Copyright (c) 2011-2012 NEC Laboratories America (Koray Kavukcuoglu)',
  'Copyright (c) 2011-2013 NYU                      (Clement Farabet)',
  'Copyright (c) 2006-2010 NEC Laboratories America (Ronan Collobert, Leon Bottou, Iain Melvin, Jason Weston)',
  'Copyright (c) 2006      Idiap Research Institute (Samy Bengio)',
  'Copyright (c) 2001-2004 Idiap Research Institute (Ronan Collobert, Samy Bengio, Johnny Mariethoz)',
  'Copyright (c) 2015      Google Inc.',
  'Copyright (c) 2015      Yangqing Jia',
  'Copyright (c) 2013-2016 The Caffe contributors',
  'All rights reserved.',
  '',
  'Various files include modifications (c) NVIDIA CORPORATION & AFFILIATES.  All rights reserved.',
  '',
  'GOVERNING TERMS: The software and materials are governed by the NVIDIA Software License Agreement',
  '(found at https://www.nvidia.com/en-us/agreements/enterprise-software/nvidia-software-license-agreement/)',
  'and the Product-Specific Terms for NVIDIA AI Products',
  '(found at https://www.nvidia.com/en-us/agreements/enterprise-software/product-specific-terms-for-ai-products/).',
  '',
  'WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.',
  '   Use the NVIDIA Container Toolkit to start this container with GPU support; see',
  '   https://docs.nvidia.com/datacenter/cloud-native/ .',
  '',
  'NOTE: The SHMEM allocation limit is set to the default of 64MB.  This may be',
  '   insufficient for PyTorch.  NVIDIA recommends the use of the following flags:',
  '   docker run --gpus all --ipc=host --ulimit memlock=-1 --ulimit stack=67108864 ...',
  '',
].join('\n');

/** The probe script exactly as seed 002 prints it (note the two trailing spaces after MTP). */
const SGLANG_PROBE = String.raw`python3 -c "
import sglang; print(\"SGLang:\", sglang.__version__)
import torch; print(\"PyTorch:\", torch.__version__, \"CUDA:\", torch.version.cuda)
import triton; print(\"Triton:\", triton.__version__)
import transformers; print(\"Transformers:\", transformers.__version__)
# Check Qwen3.5 support
try:
    from sglang.srt.models.qwen3_5_moe import Qwen3_5MoeForCausalLM
    print(\"Qwen3.5 MoE: SUPPORTED\")
except ImportError as e:
    print(f\"Qwen3.5 MoE: NOT FOUND - {e}\")
try:
    from sglang.srt.models.qwen3_5_moe_nextn import Qwen3_5ForCausalLMMTP  
    print(\"Qwen3.5 MTP: SUPPORTED\")
except ImportError as e:
    print(f\"Qwen3.5 MTP: NOT FOUND - {e}\")
" 2>&1`;

const VLLM_REGISTRY_PROBE = String.raw`python3 -c "
import vllm; print(\"vLLM:\", vllm.__version__)
from vllm.model_executor.models.registry import ModelRegistry
archs = ModelRegistry.get_supported_archs()
print(\"Qwen archs:\", sorted(a for a in archs if a.startswith(\"Qwen3\")))
print(\"Qwen3_5MoeForConditionalGeneration registered:\", \"Qwen3_5MoeForConditionalGeneration\" in archs)
import vllm.model_executor.models.qwen3_5_moe
" 2>&1`;

const VLLM_QWEN35_PROBE = String.raw`python3 -c "
import vllm; print(\"vLLM:\", vllm.__version__)
import torch; print(\"PyTorch:\", torch.__version__, \"CUDA:\", torch.version.cuda)
import transformers; print(\"Transformers:\", transformers.__version__)
from vllm.model_executor.models.registry import ModelRegistry
print(\"Qwen3_5MoeForConditionalGeneration registered:\", \"Qwen3_5MoeForConditionalGeneration\" in ModelRegistry.get_supported_archs())
try:
    import vllm.model_executor.models.qwen3_5_moe
    print(\"Qwen3.5 MoE: SUPPORTED\")
except ImportError as e:
    print(f\"Qwen3.5 MoE: NOT FOUND - {e}\")
" 2>&1`;

const pullOutput = (image: string, digest: string): string =>
  [`Digest: sha256:${digest}`, `Status: Downloaded newer image for ${image}`, `docker.io/${image}`].join('\n');

const NVIDIA_SMI_IDLE = [
  'Thu Feb 26 13:58:42 2026       ',
  '+-----------------------------------------------------------------------------------------+',
  '| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |',
  '+-----------------------------------------+------------------------+----------------------+',
  '| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |',
  '| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |',
  '|                                         |                        |               MIG M. |',
  '|=========================================+========================+======================|',
  '|   0  NVIDIA GB10                    On  |   0000000F:01:00.0  On |                  N/A |',
  '| N/A   38C    P8              4W /  N/A  | Not Supported          |      0%      Default |',
  '|                                         |                        |                  N/A |',
  '+-----------------------------------------+------------------------+----------------------+',
  '',
  '+-----------------------------------------------------------------------------------------+',
  '| Processes:                                                                              |',
  '|  GPU   GI   CI              PID   Type   Process name                        GPU Memory |',
  '|        ID   ID                                                               Usage      |',
  '|=========================================================================================|',
  '|    0   N/A  N/A            2871      G   /usr/lib/xorg/Xorg                       44MiB |',
  '+-----------------------------------------------------------------------------------------+',
].join('\n');

const EXA_SEARCH_RESULTS = [
  'Title: New pre-built sglang Docker Images for NVIDIA DGX Spark - DGX Spark / GB10 - NVIDIA Developer Forums',
  'URL: https://forums.developer.nvidia.com/t/new-pre-built-sglang-docker-images-for-nvidia-dgx-spark/352107',
  'Published: 2026-01-09T00:00:00.000Z',
  'Author: N/A',
  'Text: Pre-built SGLang images for DGX Spark (GB10, sm_121, arm64) are now published alongside the official lmsysorg/sglang:spark tag. The spark tag tracks a stable release; newer builds are posted in this thread as they land. Start with docker run --gpus all --ipc=host --net=host lmsysorg/sglang:spark python3 -m sglang.launch_server --model-path <model> ... Multi-node: pass --nnodes 2 --node-rank N --dist-init-addr <head>:20000 and set NCCL_SOCKET_IFNAME to the CX7 interface.',
  '',
  'Title: GitHub - ridanuae/dgx-spark-sglang-qwen35: Serve Qwen3.5 MoE on two DGX Sparks with SGLang',
  'URL: https://github.com/ridanuae/dgx-spark-sglang-qwen35',
  'Published: 2026-02-21T00:00:00.000Z',
  'Author: ridanuae',
  'Text: Dockerfile and launch scripts to build SGLang from source with Qwen3.5 (qwen3_5_moe) support for DGX Spark. Builds sgl-kernel for sm_121a and installs transformers>=5.2. Build time on a Spark: 60-90 minutes. Tested with Qwen3.5-122B-A10B-FP8, tp=2 over RoCE, --attention-backend triton.',
  '',
  'Title: lmsysorg/sglang - Docker Image | Docker Hub',
  'URL: https://hub.docker.com/r/lmsysorg/sglang',
  'Published: N/A',
  'Author: N/A',
  'Text: Tags: latest, spark, dev, dev-cu13, v0.5.8-cu129, ... The spark tag is built for NVIDIA DGX Spark (linux/arm64).',
].join('\n');

const FORUM_URL = 'https://forums.developer.nvidia.com/t/qwen-qwen3-5-122b-a10b-alibaba-qwen-thought-about-us-d/361639?page=11';
const EXA_FETCH_RESULTS = [
  '# Qwen/Qwen3.5-122B-A10B - Alibaba/Qwen thought about us... :-D - Page 11 - DGX Spark / GB10 - NVIDIA Developer Forums',
  `URL: ${FORUM_URL}`,
  'Published: 2026-02-24',
  '',
  'gb10_tinkerer — Feb 23',
  'Two Sparks, Qwen3.5-122B-A10B-FP8, tp=2 over the CX7 link: it works, but not with anything released yet. vLLM needs Qwen3_5MoeForConditionalGeneration (landed on main after 0.16) and transformers 5.x. The 0.14/0.15 Spark images will refuse the config.',
  '',
  'hellohal2064 — Feb 23',
  'I pushed hellohal2064/vllm-qwen3.5-gb10: vLLM main + transformers 5.2, kernels built for sm_121a, arm64. Ray across both Sparks with the usual NCCL_SOCKET_IFNAME / NCCL_IB_HCA settings, then vllm serve Qwen/Qwen3.5-122B-A10B-FP8 -tp 2 --distributed-executor-backend ray --gpu-memory-utilization 0.7. Load takes ~10 minutes, most of it weights + torch.compile.',
  '',
  'sparkuser42 — Feb 24',
  'Anyone tried SGLang? scitrera/dgx-spark-sglang has a 0.5.10rc0 tag now. lmsysorg/sglang:dev-cu13 is supposed to have the Qwen3.5 PR but I have only seen it on x86.',
  '',
  'gb10_tinkerer — Feb 24',
  "Haven't tried scitrera's rc. NGC should get a vLLM nightly with Qwen3.5 at some point; nothing on nvcr.io yet as far as I can see.",
  '',
  '---',
  '',
  '# scitrera/dgx-spark-sglang - Docker Image | Docker Hub',
  'URL: https://hub.docker.com/r/scitrera/dgx-spark-sglang',
  'Published: N/A',
  '',
  'SGLang builds for NVIDIA DGX Spark (GB10, sm_121, linux/arm64), based on nvcr.io/nvidia/pytorch:26.02-py3.',
  '',
  'Tags',
  'scitrera/dgx-spark-sglang:0.5.10rc0   linux/arm64   14.6 GB   Last pushed 6 days ago',
  'scitrera/dgx-spark-sglang:0.5.9       linux/arm64   14.1 GB   Last pushed 24 days ago',
  'scitrera/dgx-spark-sglang:0.5.8       linux/arm64   13.8 GB   Last pushed a month ago',
  '',
  'Usage: docker run --gpus all --ipc=host --net=host scitrera/dgx-spark-sglang:0.5.10rc0 python3 -m sglang.launch_server --model-path <model> --host 0.0.0.0',
].join('\n');

/**
 * The log of a ~10-minute vLLM start-up with TP=2 over Ray, as far as it had got `untilSec` seconds
 * after launch; the whole of it is long enough that opencode truncates a full `cat`.
 */
function serveLog(startedAt: Date, untilSec = Number.POSITIVE_INFINITY): string {
  let clock = 0;
  const stamp = (offsetSec: number): string => {
    clock = offsetSec;
    const d = new Date(startedAt.getTime() + offsetSec * 1000);
    const pad = (n: number): string => String(n).padStart(2, '0');
    return `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  };
  const local = '(RayWorkerWrapper pid=2214)';
  const remote = '(RayWorkerWrapper pid=1893, ip=192.168.200.2)';
  const timed: { sec: number; text: string }[] = [];
  const lines = { push: (text: string): void => void timed.push({ sec: clock, text }) };
  const api = (sec: number, where: string, msg: string): void => {
    lines.push(`(APIServer pid=1187) INFO ${stamp(sec)} [${where}] ${msg}`);
  };
  api(0, 'api_server.py:1839', 'vLLM API server version 0.17.0rc1.dev58+g9a3e6c1f2');
  api(
    0,
    'utils.py:328',
    `non-default args: {'model_tag': '${MODEL}', 'host': '0.0.0.0', 'enable_auto_tool_choice': True, 'tool_call_parser': 'qwen3_coder', 'model': '${MODEL}', 'max_model_len': 262144, 'reasoning_parser': 'qwen3', 'distributed_executor_backend': 'ray', 'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.7, 'enable_prefix_caching': True, 'max_num_batched_tokens': 8192}`,
  );
  api(9, 'model.py:541', "Resolved architecture: Qwen3_5MoeForConditionalGeneration");
  api(9, 'model.py:1739', 'Using max model len 262144');
  api(10, 'scheduler.py:233', 'Chunked prefill is enabled with max_num_batched_tokens=8192.');
  api(10, 'config.py:318', 'Hybrid or mamba-based model detected: disabling prefix caching is not required; using mamba cache mode "align".');
  api(10, 'config.py:411', 'Setting attention block size to 1072 tokens to ensure that attention page size is >= mamba page size.');
  api(10, 'config.py:435', 'Padding mamba page size by 0.74% to ensure that mamba page size and attention page size are exactly equal.');
  lines.push(
    `(EngineCore_DP0 pid=1402) INFO ${stamp(14)} [core.py:95] Initializing a V1 LLM engine (v0.17.0rc1.dev58+g9a3e6c1f2) with config: model='${MODEL}', speculative_config=None, tokenizer='${MODEL}', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=262144, download_dir=None, load_format=auto, tensor_parallel_size=2, pipeline_parallel_size=1, data_parallel_size=1, disable_custom_all_reduce=False, quantization=fp8, enforce_eager=False, kv_cache_dtype=auto, device_config=cuda, structured_outputs_config=StructuredOutputsConfig(backend='auto', disable_fallback=False, disable_any_whitespace=False, disable_additional_properties=False, reasoning_parser='qwen3'), observability_config=ObservabilityConfig(show_hidden_metrics_for_version=None, otlp_traces_endpoint=None, collect_detailed_traces=None), seed=0, served_model_name=${MODEL}, enable_prefix_caching=True, chunked_prefill_enabled=True, pooler_config=None, compilation_config={"level":3,"debug_dump_path":"","cache_dir":"","backend":"","custom_ops":[],"splitting_ops":["vllm::unified_attention","vllm::unified_attention_with_output","vllm::mamba_mixer2","vllm::gdn_attention","vllm::linear_attention"],"use_inductor":true,"compile_sizes":[],"inductor_compile_config":{"enable_auto_functionalized_v2":false},"use_cudagraph":true,"cudagraph_num_of_warmups":1,"cudagraph_capture_sizes":[512,504,496,488,480,472,464,456,448,440,432,424,416,408,400,392,384,376,368,360,352,344,336,328,320,312,304,296,288,280,272,264,256,248,240,232,224,216,208,200,192,184,176,168,160,152,144,136,128,120,112,104,96,88,80,72,64,56,48,40,32,24,16,8,4,2,1],"cudagraph_copy_inputs":false,"full_cuda_graph":false,"max_capture_size":512}`,
  );
  lines.push(`(EngineCore_DP0 pid=1402) INFO ${stamp(15)} [ray_utils.py:345] Connecting to existing Ray cluster at address: 192.168.200.1:6379...`);
  lines.push(`(EngineCore_DP0 pid=1402) INFO ${stamp(16)} [ray_utils.py:372] Connected to Ray cluster. Nodes: 2, GPUs: 2.`);
  lines.push(`(EngineCore_DP0 pid=1402) INFO ${stamp(16)} [ray_distributed_executor.py:171] use_ray_spmd_worker: True`);
  for (const [worker, ip, rank] of [
    [local, '192.168.200.1', 0],
    [remote, '192.168.200.2', 1],
  ] as const) {
    lines.push(`${worker} INFO ${stamp(24)} [parallel_state.py:1208] world_size=2 rank=${rank} local_rank=0 distributed_init_method=tcp://192.168.200.1:41729 backend=nccl`);
    lines.push(`${worker} INFO ${stamp(25)} [pynccl.py:111] vLLM is using nccl==2.28.9`);
    lines.push(`${worker} INFO ${stamp(25)} [cuda_communicator.py:127] NCCL over RoCE: NCCL_IB_HCA=rocep1s0f1 NCCL_SOCKET_IFNAME=enp1s0f1np1 (local ip ${ip})`);
    lines.push(`${worker} INFO ${stamp(26)} [parallel_state.py:1414] rank ${rank} in world size 2 is assigned as DP rank 0, PP rank 0, TP rank ${rank}, EP rank ${rank}`);
    lines.push(`${worker} INFO ${stamp(27)} [gpu_model_runner.py:3021] Starting to load model ${MODEL}...`);
    lines.push(`${worker} INFO ${stamp(28)} [gdn_attn.py:88] Using Triton/FLA kernels for gated delta net (linear attention) layers.`);
    lines.push(`${worker} INFO ${stamp(28)} [cuda.py:366] Using FLASHINFER backend for full attention layers.`);
    lines.push(`${worker} INFO ${stamp(28)} [fp8.py:162] Using CUTLASS block-scaled FP8 GEMM for sm_121.`);
  }
  const shards = 49;
  for (let i = 1; i <= shards; i++) {
    clock = 28 + i * 5.55;
    const elapsed = Math.round(i * 5.55);
    const rate = 5.55;
    const remaining = Math.round((shards - i) * rate);
    const pct = Math.round((100 * i) / shards);
    const mmss = (s: number): string => `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
    lines.push(
      `${local} Loading safetensors checkpoint shards: ${String(pct).padStart(3, ' ')}% Completed | ${i}/${shards} [${mmss(elapsed)}<${mmss(remaining)},  ${rate.toFixed(2)}s/it]`,
    );
  }
  for (const worker of [local, remote]) {
    lines.push(`${worker} INFO ${stamp(301)} [default_loader.py:314] Loading weights took 271.93 seconds`);
    lines.push(`${worker} INFO ${stamp(304)} [gpu_model_runner.py:3103] Model loading took 58.94 GiB and 276.418203 seconds`);
    lines.push(
      `${worker} WARNING ${stamp(318)} [fused_moe.py:1034] Using default MoE config. Performance might be sub-optimal! Config file not found at ['/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/fused_moe/configs/E=256,N=512,device_name=NVIDIA_GB10,dtype=fp8_w8a8,block_shape=[128,128].json']`,
    );
    lines.push(`${worker} INFO ${stamp(331)} [backends.py:548] Using cache directory: /root/.cache/vllm/torch_compile_cache/3f9e0c1a27/rank_0_0/backbone for vLLM's torch.compile`);
    lines.push(`${worker} INFO ${stamp(331)} [backends.py:559] Dynamo bytecode transform time: 22.61 s`);
    lines.push(`${worker} INFO ${stamp(420)} [backends.py:194] Compiling a graph for dynamic shape takes 86.37 s`);
    lines.push(`${worker} INFO ${stamp(433)} [monitor.py:34] torch.compile takes 108.98 s in total`);
    lines.push(`${worker} INFO ${stamp(440)} [gpu_worker.py:298] Available KV cache memory: 17.06 GiB`);
  }
  lines.push(`(EngineCore_DP0 pid=1402) INFO ${stamp(441)} [kv_cache_utils.py:1087] GPU KV cache size: 358,912 tokens`);
  lines.push(`(EngineCore_DP0 pid=1402) INFO ${stamp(441)} [kv_cache_utils.py:1091] Maximum concurrency for 262,144 tokens per request: 5.25x`);
  const captureSizes = 67;
  for (const worker of [local, remote]) {
    for (const mode of ['mixed prefill-decode, PIECEWISE', 'decode, FULL'] as const) {
      const total = captureSizes;
      for (let i = 1; i <= total; i++) {
        clock = 441 + i * 0.31;
        const pct = Math.round((100 * i) / total);
        const bar = '█'.repeat(Math.floor(pct / 10)).padEnd(10, ' ');
        const secs = Math.round(i * 0.31);
        lines.push(
          `${worker} Capturing CUDA graphs (${mode}): ${String(pct).padStart(3, ' ')}%|${bar}| ${i}/${total} [00:${String(secs).padStart(2, '0')}<00:${String(Math.round((total - i) * 0.31)).padStart(2, '0')},  3.21it/s]`,
        );
      }
    }
    lines.push(`${worker} INFO ${stamp(478)} [gpu_model_runner.py:3958] Graph capturing finished in 34 secs, took 1.12 GiB`);
  }
  lines.push(`(EngineCore_DP0 pid=1402) INFO ${stamp(480)} [core.py:218] init engine (profile, create kv cache, warmup model) took 176.05 seconds`);
  api(489, 'api_server.py:1634', 'Supported_tasks: [\'generate\']');
  api(489, 'serving_chat.py:139', 'Using default chat sampling params from model: {\'temperature\': 0.6, \'top_k\': 20, \'top_p\': 0.95}');
  api(490, 'api_server.py:1912', 'Starting vLLM API server 0 on http://0.0.0.0:8000');
  const routes = [
    '/openapi.json, Methods: HEAD, GET',
    '/docs, Methods: HEAD, GET',
    '/docs/oauth2-redirect, Methods: HEAD, GET',
    '/redoc, Methods: HEAD, GET',
    '/health, Methods: GET',
    '/load, Methods: GET',
    '/ping, Methods: POST',
    '/ping, Methods: GET',
    '/tokenize, Methods: POST',
    '/detokenize, Methods: POST',
    '/v1/models, Methods: GET',
    '/version, Methods: GET',
    '/v1/responses, Methods: POST',
    '/v1/responses/{response_id}, Methods: GET',
    '/v1/responses/{response_id}/cancel, Methods: POST',
    '/v1/chat/completions, Methods: POST',
    '/v1/completions, Methods: POST',
    '/v1/embeddings, Methods: POST',
    '/pooling, Methods: POST',
    '/classify, Methods: POST',
    '/score, Methods: POST',
    '/v1/score, Methods: POST',
    '/v1/audio/transcriptions, Methods: POST',
    '/v1/audio/translations, Methods: POST',
    '/rerank, Methods: POST',
    '/v1/rerank, Methods: POST',
    '/v2/rerank, Methods: POST',
    '/scale_elastic_ep, Methods: POST',
    '/is_scaling_elastic_ep, Methods: POST',
    '/invocations, Methods: POST',
    '/metrics, Methods: GET',
  ];
  for (const route of routes) api(490, 'launcher.py:46', `Route: ${route}`);
  lines.push(`(APIServer pid=1187) INFO:     Started server process [1187]`);
  lines.push(`(APIServer pid=1187) INFO:     Waiting for application startup.`);
  lines.push(`(APIServer pid=1187) INFO:     Application startup complete.`);
  // The first successful health check, a good minute after start-up completed.
  clock = 560;
  lines.push(`(APIServer pid=1187) INFO:     127.0.0.1:51844 - "GET /health HTTP/1.1" 200 OK`);
  const reached = timed.findIndex((line) => line.sec > untilSec);
  return `${(reached === -1 ? timed : timed.slice(0, reached)).map((line) => line.text).join('\n')}\n`;
}

// ───────────────────────── the story ─────────────────────────

function buildSession(): JsonObject {
  const s = new SessionBuilder(BASE_TIME);
  const headDigestSglang = '16dec654b13e4d10a2d9eefa0560e85fed0d1fc9536986e1dfb1bcb0077cbc7a';

  // 1 ↔ 6556
  s.user(
    'Next: deploy Qwen/Qwen3.5-122B-A10B-FP8 across both DGX Sparks as one model, two-node tensor parallel over the IB link (spark-1a32 is the head, spark-5be3 the worker). Look at what is running first.',
    { gapMs: 0 },
  );

  // 2 ↔ 6557
  s.assistant({
    reasoning:
      'The user wants Qwen3.5-122B-A10B-FP8 served with tensor parallelism 2 across spark-1a32 and spark-5be3. Before touching anything I need the current state of both boxes: the head still serves GLM-4.7-Flash-NVFP4 through the vllm-cluster container behind a proxy, with embeddings and a reranker beside it; the worker runs its own embeddings vLLM.',
    text: 'Let me look at what is running on both Sparks first.',
    tools: [
      bash(
        HEAD,
        'docker ps --format "table {{.Names}}\\t{{.Image}}\\t{{.Status}}"; systemctl list-units --type=service --state=running --no-pager | grep -E "vllm|embed|rerank"',
        'Show containers and vLLM services on head',
        [
          'NAMES             IMAGE                          STATUS',
          'vllm-cluster      vllm-spark:v0.14.0rc2.dev262   Up 6 days',
          'vllm-proxy        nginx:1.27-alpine              Up 6 days',
          'vllm-reranker     vllm-spark:v0.14.0rc2.dev262   Up 6 days',
          'vllm-embeddings   vllm-spark:v0.14.0rc2.dev262   Up 6 days',
          '  vllm-cluster.service      loaded active running vLLM cluster: GLM-4.7-Flash-NVFP4 (port 8100)',
          '  vllm-embeddings.service   loaded active running vLLM embeddings: Qwen3-Embedding-4B (port 8001)',
          '  vllm-proxy.service        loaded active running nginx proxy for the vLLM endpoints (port 8000)',
          '  vllm-reranker.service     loaded active running vLLM reranker: Qwen3-Reranker-4B (port 8002)',
        ].join('\n') + '\n',
        1_184,
      ),
      bash(
        WORKER,
        'docker ps --format "table {{.Names}}\\t{{.Image}}\\t{{.Status}}"',
        'Show containers on spark-5be3',
        ['NAMES             IMAGE                          STATUS', 'vllm-embeddings   vllm-spark:v0.14.0rc2.dev262   Up 12 days'].join(
          '\n',
        ) + '\n',
        906,
      ),
    ],
  });

  // 3 ↔ 6558
  s.assistant({
    reasoning: `${QUOTES.memoryBudget} Each Spark has 120 GB of unified memory, so TP=2 is the only way this fits; a single node cannot hold the weights.`,
    text: 'Head: GLM-4.7-Flash-NVFP4 (vllm-cluster), proxy, embeddings, reranker. Worker: its own embeddings. Now checking which Qwen3.5-122B-A10B checkpoints exist on the Hub.',
    tools: [
      bash(
        HEAD,
        'curl -s "https://huggingface.co/api/models?search=Qwen3.5-122B-A10B&limit=10" | python3 -c "import json,sys; [print(m[\\"id\\"]) for m in json.load(sys.stdin)]"',
        'List Qwen3.5-122B-A10B repos on the Hub',
        ['Qwen/Qwen3.5-122B-A10B', 'Qwen/Qwen3.5-122B-A10B-FP8', 'unsloth/Qwen3.5-122B-A10B-GGUF', 'mlx-community/Qwen3.5-122B-A10B-4bit'].join('\n') +
          '\n',
        1_622,
      ),
    ],
  });

  // 4 ↔ 6559
  s.assistant({
    reasoning: `${QUOTES.hybridGdn} If Qwen3.5 carries the Gated DeltaNet layers of Qwen3-Next, the engine has to support them on sm_121. Confirm from config.json before choosing anything.`,
    text: 'The official FP8 checkpoint exists (Qwen/Qwen3.5-122B-A10B-FP8). Checking its architecture: if it mixes linear and full attention, the engine choice matters.',
    tools: [
      bash(
        HEAD,
        'curl -sL https://huggingface.co/Qwen/Qwen3.5-122B-A10B-FP8/resolve/main/config.json | python3 -c "import json,sys; c=json.load(sys.stdin); t=c.get(\\"text_config\\", c); print(c[\\"architectures\\"]); print(t[\\"num_hidden_layers\\"], \\"layers\\"); print(sorted(set(t[\\"layer_types\\"])))"',
        'Read architecture from the FP8 config.json',
        "['Qwen3_5MoeForConditionalGeneration']\n48 layers\n['full_attention', 'linear_attention']\n",
        1_371,
      ),
    ],
  });

  // 5 ↔ 6560; the user types 6561 while this probe runs, so opencode queues it.
  let probeStartedAt = 0;
  s.assistant({
    reasoning:
      'architectures: Qwen3_5MoeForConditionalGeneration; 48 layers mixing linear_attention and full_attention, so hybrid GDN is confirmed. The Sparks run vllm-spark:v0.14.0rc2.dev262. Ask the running container directly whether its registry knows the architecture and whether the model module imports.',
    text: 'Hybrid GDN confirmed (linear_attention + full_attention layers). The deciding question: does the vLLM build on the Sparks know this architecture? If Qwen3_5MoeForConditionalGeneration is not in its registry and `qwen3_5_moe` does not import, this image cannot serve Qwen3.5.',
    tools: [
      bash(
        HEAD,
        `docker exec vllm-cluster ${VLLM_REGISTRY_PROBE}`,
        'Probe running vLLM image for Qwen3.5 support',
        [
          'INFO 02-26 13:44:51 [__init__.py:216] Automatically detected platform cuda.',
          'vLLM: 0.14.0rc2.dev262',
          "Qwen archs: ['Qwen3ForCausalLM', 'Qwen3ForSequenceClassification', 'Qwen3MoeForCausalLM', 'Qwen3NextForCausalLM', 'Qwen3NextMTP', 'Qwen3OmniMoeForConditionalGeneration', 'Qwen3VLForConditionalGeneration', 'Qwen3VLMoeForConditionalGeneration']",
          'Qwen3_5MoeForConditionalGeneration registered: False',
          'Traceback (most recent call last):',
          '  File "<string>", line 7, in <module>',
          "ModuleNotFoundError: No module named 'vllm.model_executor.models.qwen3_5_moe'",
        ].join('\n') + '\n',
        8_914,
        { exit: 1 },
      ),
    ],
    onToolStart: (at) => {
      probeStartedAt = at;
    },
  });

  // 6 ↔ 6561
  s.user(
    'stop the GLM model on the head, we need the memory. keep the embeddings on the secondary running, other apps use them',
    { at: probeStartedAt + 4_217 },
  );

  // 7 ↔ 6562
  s.assistant({
    reasoning:
      'The probe settles the engine question: vLLM 0.14.0rc2.dev262 lists Qwen3, Qwen3-MoE, Qwen3-Next and Qwen3-VL but not Qwen3_5MoeForConditionalGeneration, and the module is missing. The user wants GLM stopped on the head and the secondary\'s embeddings kept. A 61 GB shard plus KV cache needs the whole head, so the head\'s own embeddings and reranker have to stop too; only spark-5be3\'s embeddings stay. List the exact unit names first.',
    text: 'The probe settles it: `vllm-spark:v0.14.0rc2.dev262` has Qwen3ForCausalLM, Qwen3MoeForCausalLM, Qwen3VLForConditionalGeneration… but no Qwen3_5MoeForConditionalGeneration, and `vllm.model_executor.models.qwen3_5_moe` does not exist. This image cannot serve Qwen3.5; we need another engine.\n\nStopping GLM on the head now. Listing the units so I stop exactly the right ones.',
    tools: [
      bash(
        HEAD,
        'systemctl list-units --type=service --all --no-pager | grep -E "vllm|embed|rerank"; docker ps -a --format "{{.Names}}\\t{{.Status}}"',
        'List vLLM units and containers on head',
        [
          '  vllm-cluster.service      loaded active running vLLM cluster: GLM-4.7-Flash-NVFP4 (port 8100)',
          '  vllm-embeddings.service   loaded active running vLLM embeddings: Qwen3-Embedding-4B (port 8001)',
          '  vllm-proxy.service        loaded active running nginx proxy for the vLLM endpoints (port 8000)',
          '  vllm-reranker.service     loaded active running vLLM reranker: Qwen3-Reranker-4B (port 8002)',
          'vllm-cluster\tUp 6 days',
          'vllm-proxy\tUp 6 days',
          'vllm-reranker\tUp 6 days',
          'vllm-embeddings\tUp 6 days',
        ].join('\n') + '\n',
        1_093,
      ),
    ],
  });

  // 8 ↔ 6563
  s.assistant({
    reasoning: 'Check how the units are wired so that stopping them does not trigger a restart (Restart=always) or leave the proxy pointing at nothing.',
    text: 'Checking how the cluster and proxy units are wired before stopping them.',
    tools: [
      bash(
        HEAD,
        'systemctl cat vllm-cluster vllm-proxy --no-pager',
        'Show vllm-cluster and vllm-proxy unit files',
        [
          '# /etc/systemd/system/vllm-cluster.service',
          '[Unit]',
          'Description=vLLM cluster: GLM-4.7-Flash-NVFP4 (port 8100)',
          'After=docker.service network-online.target',
          'Requires=docker.service',
          '',
          '[Service]',
          'Restart=on-failure',
          'ExecStart=/usr/bin/docker start -a vllm-cluster',
          'ExecStop=/usr/bin/docker stop -t 60 vllm-cluster',
          '',
          '[Install]',
          'WantedBy=multi-user.target',
          '',
          '# /etc/systemd/system/vllm-proxy.service',
          '[Unit]',
          'Description=nginx proxy for the vLLM endpoints (port 8000)',
          'After=vllm-cluster.service vllm-embeddings.service vllm-reranker.service',
          '',
          '[Service]',
          'Restart=on-failure',
          'ExecStart=/usr/bin/docker start -a vllm-proxy',
          'ExecStop=/usr/bin/docker stop vllm-proxy',
          '',
          '[Install]',
          'WantedBy=multi-user.target',
        ].join('\n') + '\n',
        702,
      ),
    ],
  });

  // 9 ↔ 6564
  s.assistant({
    reasoning:
      'Restart=on-failure only, so a clean stop stays stopped. The proxy listens on 8000, which is where the new model will serve, so it goes with the cluster. Confirm spark-5be3\'s embeddings are independent of the head before stopping anything.',
    text: 'Plan: stop `vllm-cluster` + `vllm-proxy` first (the proxy holds port 8000, which the new server will use), then the head\'s `vllm-embeddings` + `vllm-reranker`. spark-5be3\'s embeddings stay up. Quick check that they don\'t depend on the head:',
    tools: [
      bash(
        WORKER,
        'systemctl is-active vllm-embeddings; curl -s -o /dev/null -w "%{http_code}\\n" localhost:8001/health',
        'Check embeddings service on spark-5be3',
        'active\n200\n',
        688,
      ),
    ],
  });

  // 10 ↔ 6565
  s.assistant({
    text: 'spark-5be3\'s embeddings are independent (active, /health 200). Stopping the GLM cluster and the proxy on the head.',
    tools: [
      bash(
        HEAD,
        'sudo systemctl stop vllm-cluster vllm-proxy && echo "stopped: vllm-cluster vllm-proxy"',
        'Stop GLM cluster and proxy on head',
        'stopped: vllm-cluster vllm-proxy\n',
        14_382,
      ),
    ],
  });

  // 11 ↔ 6566
  s.assistant({
    text: 'Now the head\'s embeddings and reranker.',
    tools: [
      bash(
        HEAD,
        'sudo systemctl stop vllm-embeddings vllm-reranker && docker ps --format "{{.Names}}"',
        'Stop embeddings and reranker on head',
        '',
        9_761,
      ),
    ],
  });

  // 12 ↔ 6567
  s.assistant({
    text: 'No containers left on the head. Checking that the GPU memory is actually free.',
    tools: [bash(HEAD, 'nvidia-smi', 'Check GPU memory on head', NVIDIA_SMI_IDLE + '\n', 1_247)],
  });

  // 13 ↔ 6568: three parallel calls; the pull hits the bash tool's 120 s default timeout.
  s.assistant({
    reasoning:
      'The head GPU is free: only Xorg holds 44 MiB. vLLM 0.14 cannot load Qwen3.5, so I need an engine that can, on arm64 + sm_121. SGLang has shipped Spark images (lmsysorg/sglang:spark), and on kpro6 SGLang handled hybrid GDN with the triton backend. Three independent things can run at once: search for current Spark images with Qwen3.5 support, start pulling lmsysorg/sglang:spark now because pulls are slow, and check whether the head is ready for a 119 GB download (HF CLI, disk, cache).',
    text: 'Head GPU is clear (44 MiB, display only). In parallel: searching for a Spark image with Qwen3.5 support, pulling the SGLang Spark image, and checking download prerequisites on the head.',
    tools: [
      mcp(
        'exa_web_search_exa',
        { query: 'SGLang Docker image DGX Spark lmsysorg/sglang:spark Qwen3.5 support 2026', numResults: 5 },
        EXA_SEARCH_RESULTS,
        4_806,
      ),
      bash(
        HEAD,
        'docker pull lmsysorg/sglang:spark 2>&1 | tail -3',
        'Pull SGLang spark image on head',
        '',
        BASH_DEFAULT_TIMEOUT + 100 + 214,
        { timedOut: true, suffix: ' 2>&1' },
      ),
      bash(
        HEAD,
        'which huggingface-cli || echo "huggingface-cli: not found"; df -h / | tail -1; ls ~/.cache/huggingface/hub; ls -d ~/.cache/huggingface/hub/models--Qwen--Qwen3.5* 2>/dev/null || echo "Qwen3.5 not in HF cache"',
        'Check HF CLI, disk space and HF cache',
        [
          'huggingface-cli: not found',
          '/dev/nvme0n1p2  3.7T  652G  3.0T  18% /',
          'models--Qwen--Qwen3-Embedding-4B',
          'models--Qwen--Qwen3-Reranker-4B',
          'models--zai-org--GLM-4.7-Flash-NVFP4',
          'Qwen3.5 not in HF cache',
        ].join('\n') + '\n',
        1_318,
      ),
    ],
  });

  // 14 ↔ 6569
  s.assistant({
    reasoning:
      'Search results: an NVIDIA forum thread on pre-built SGLang Spark images and ridanuae/dgx-spark-sglang-qwen35 (a from-source build). Environment: no huggingface-cli, 3.0T free of 3.7T, the model is not cached. The pull was killed at 120 s with no output; the daemon probably kept some layers, so retrying with a long timeout should finish faster.',
    text: QUOTES.leads,
    tools: [
      bash(
        HEAD,
        'docker pull lmsysorg/sglang:spark 2>&1 | tail -3',
        'Retry SGLang spark image pull with long timeout',
        pullOutput('lmsysorg/sglang:spark', headDigestSglang) + '\n',
        251_627,
        { timeout: 900_000, suffix: ' 2>&1' },
      ),
      mcp(
        'exa_web_fetch_exa',
        { maxCharacters: 8000, urls: [FORUM_URL, 'https://hub.docker.com/r/scitrera/dgx-spark-sglang'] },
        EXA_FETCH_RESULTS,
        6_912,
      ),
    ],
  });

  // 15 ↔ 6570
  s.assistant({
    reasoning:
      'The retry completed: lmsysorg/sglang:spark is local. Forum page 11 (2026-02-24): Qwen3.5 needs vLLM main plus transformers 5.x, someone runs it with hellohal2064/vllm-qwen3.5-gb10, scitrera has a 0.5.10rc0 tag, lmsysorg/sglang:dev-cu13 is unverified on arm64, no NGC nightly yet. The spark image is already here, so probing it costs seconds: do that first.',
    text: '`lmsysorg/sglang:spark` is pulled. Probing it for Qwen3.5 support first, since it is already local.',
    tools: [
      bash(
        HEAD,
        `docker run --rm lmsysorg/sglang:spark ${SGLANG_PROBE}`,
        'Probe lmsysorg/sglang:spark for Qwen3.5 support',
        CUDA_BANNER('13.0.1') +
          [
            'SGLang: 0.5.4',
            'PyTorch: 2.9.0+cu130 CUDA: 13.0',
            'Triton: 3.5.0',
            'Transformers: 4.57.1',
            "Qwen3.5 MoE: NOT FOUND - No module named 'sglang.srt.models.qwen3_5_moe'",
            "Qwen3.5 MTP: NOT FOUND - No module named 'sglang.srt.models.qwen3_5_moe_nextn'",
          ].join('\n') +
          '\n',
        11_408,
      ),
    ],
  });

  // 16 ↔ 6571
  s.assistant({
    reasoning: `lmsysorg/sglang:spark is SGLang 0.5.4 with transformers 4.57.1 and neither Qwen3.5 module: months older than the model. ${QUOTES.scitrera}`,
    text: '`lmsysorg/sglang:spark` is too old for Qwen3.5: SGLang 0.5.4, transformers 4.57.1, and neither `qwen3_5_moe` module exists. Rejected.\n\nNext candidate: `scitrera/dgx-spark-sglang:0.5.10rc0`, pushed 6 days ago.',
    tools: [
      bash(
        HEAD,
        'docker pull scitrera/dgx-spark-sglang:0.5.10rc0 2>&1 | tail -3',
        'Pull scitrera SGLang 0.5.10rc0 image on head',
        pullOutput('scitrera/dgx-spark-sglang:0.5.10rc0', randomHex(64)) + '\n',
        283_054,
        { timeout: 1_200_000, suffix: ' 2>&1' },
      ),
    ],
  });

  // 17 ↔ 6572: the exact probe seed 002 prints.
  s.assistant({
    text: 'Pulled. Running the same probe against `scitrera/dgx-spark-sglang:0.5.10rc0`.',
    tools: [
      bash(
        HEAD,
        `docker run --rm scitrera/dgx-spark-sglang:0.5.10rc0 ${SGLANG_PROBE}`,
        'Probe scitrera image for Qwen3.5 support',
        PYTORCH_BANNER +
          [
            'SGLang: 0.0.0',
            'PyTorch: 2.11.0a0+eb65b36 CUDA: 13.0',
            'Triton: 3.6.0',
            'Transformers: 4.57.6',
            "Qwen3.5 MoE: NOT FOUND - No module named 'sglang.srt.models.qwen3_5_moe'",
            "Qwen3.5 MTP: NOT FOUND - No module named 'sglang.srt.models.qwen3_5_moe_nextn'",
          ].join('\n') +
          '\n',
        13_276,
      ),
    ],
  });

  // 18 ↔ 6573: verdict and pivot; the turn ends here.
  s.assistant({
    reasoning:
      'SGLang 0.0.0 means an editable install without version metadata, so the tag says little; transformers 4.57.6 is below the 5.x that Qwen3.5 needs; both imports fail. Both SGLang images are out and vLLM 0.14 cannot load the architecture. The forum reports a working two-Spark deployment with hellohal2064/vllm-qwen3.5-gb10, a vLLM build made for Qwen3.5 on GB10: that is the strongest lead. dev-cu13, the NGC nightly and the ridanuae source build stay untested.',
    text: [
      '`scitrera/dgx-spark-sglang:0.5.10rc0` is a dead end too:',
      '',
      '- SGLang reports `0.0.0`: an editable install without version metadata, so the tag tells us little',
      '- transformers `4.57.6`: Qwen3.5 needs ≥ 5.x',
      '- `sglang.srt.models.qwen3_5_moe` and `qwen3_5_moe_nextn` both fail to import',
      '',
      'Rejected. Both SGLang images are out, and the vLLM 0.14 image on the Sparks cannot load the architecture either.',
      '',
      `**Pivot:** \`${SERVE_IMAGE}\`, a vLLM image built for Qwen3.5 on GB10; forum page 11 reports it running TP=2 across two Sparks. Plan:`,
      '1. pull it on both Sparks and probe it (vLLM ≥ 0.17 dev, transformers 5.x, Qwen3_5Moe registered)',
      '2. install `huggingface_hub` and download Qwen/Qwen3.5-122B-A10B-FP8 (~119 GB) on both nodes in parallel',
      '3. Ray cluster over the CX7 link (192.168.200.1 ↔ .2), then `vllm serve … -tp 2 --distributed-executor-backend ray`',
      '',
      'Not pursuing for now: `lmsysorg/sglang:dev-cu13` (nightly, unverified on arm64/sm_121), an NGC vLLM nightly (none published yet), and building `ridanuae/dgx-spark-sglang-qwen35` from source (60–90 minutes).',
      '',
      'Go ahead?',
    ].join('\n'),
  });

  // 19
  s.user(`go ahead. if pypi is slow from the sparks use our mirror: ${PIP_INDEX}`, { gapMs: 96_000 });

  // 20
  s.assistant({
    reasoning: 'Pull the vLLM image on both nodes at once; it is large, so give each pull 30 minutes.',
    text: `Pulling \`${SERVE_IMAGE}\` on both Sparks in parallel.`,
    tools: [
      bash(HEAD, `docker pull ${SERVE_IMAGE} 2>&1 | tail -3`, 'Pull vLLM Qwen3.5 image on head', pullOutput(`${SERVE_IMAGE}:latest`, randomHex(64)) + '\n', 457_310, {
        timeout: 1_800_000,
        suffix: ' 2>&1',
      }),
      bash(WORKER, `docker pull ${SERVE_IMAGE} 2>&1 | tail -3`, 'Pull vLLM Qwen3.5 image on worker', pullOutput(`${SERVE_IMAGE}:latest`, randomHex(64)) + '\n', 485_902, {
        timeout: 1_800_000,
        suffix: ' 2>&1',
      }),
    ],
  });

  // 21
  s.assistant({
    text: 'Both pulls done. Probing the image before committing to it.',
    tools: [
      bash(
        HEAD,
        `docker run --rm ${SERVE_IMAGE} ${VLLM_QWEN35_PROBE}`,
        'Probe vLLM Qwen3.5 image for support',
        CUDA_BANNER('13.0.2') +
          [
            'INFO 02-26 14:18:40 [__init__.py:216] Automatically detected platform cuda.',
            'vLLM: 0.17.0rc1.dev58+g9a3e6c1f2',
            'PyTorch: 2.10.0+cu130 CUDA: 13.0',
            'Transformers: 5.2.0',
            'Qwen3_5MoeForConditionalGeneration registered: True',
            'Qwen3.5 MoE: SUPPORTED',
          ].join('\n') +
          '\n',
        14_927,
      ),
    ],
  });

  // 22
  s.assistant({
    reasoning: 'Positive probe: vLLM 0.17.0rc1 dev, transformers 5.2.0, the architecture is registered. Next the download tooling on both nodes, through the mirror the user gave.',
    text: `\`${SERVE_IMAGE}\` checks out: vLLM 0.17.0rc1.dev58, transformers 5.2.0, Qwen3_5MoeForConditionalGeneration registered. Installing \`huggingface_hub\` on both nodes via your mirror.`,
    tools: [
      bash(HEAD, `python3 -m pip install -U --index-url ${PIP_INDEX} huggingface_hub 2>&1`, 'Install huggingface_hub on head', PEP668_ERROR, 2_214, { exit: 1 }),
      bash(WORKER, `python3 -m pip install -U --index-url ${PIP_INDEX} huggingface_hub 2>&1`, 'Install huggingface_hub on worker', PEP668_ERROR, 2_086, {
        exit: 1,
      }),
    ],
  });

  // 23
  s.assistant({
    reasoning:
      'PEP 668: DGX OS marks the system Python as externally managed. A --user install with --break-system-packages only writes to ~/.local, which is acceptable for a CLI; hf will land in ~/.local/bin, which a non-interactive ssh PATH does not include.',
    text: 'DGX OS marks the system Python as externally managed (PEP 668). A user-level install only touches `~/.local`, fine for a CLI:',
    tools: [
      bash(
        HEAD,
        `python3 -m pip install --user --break-system-packages -U --index-url ${PIP_INDEX} huggingface_hub 2>&1 | tail -3`,
        'User-install huggingface_hub on head',
        PIP_SUCCESS,
        9_843,
      ),
      bash(
        WORKER,
        `python3 -m pip install --user --break-system-packages -U --index-url ${PIP_INDEX} huggingface_hub 2>&1 | tail -3`,
        'User-install huggingface_hub on worker',
        PIP_SUCCESS,
        10_517,
      ),
    ],
  });

  // 24: the two downloads run side by side for ~30 minutes.
  const snapshotRev = randomHex(40);
  const download = (host: string, node: string, minutesSeconds: string, rate: string, durationMs: number): ToolSpec =>
    bash(
      host,
      `HF_TOKEN=${FAKE_HF_TOKEN} ~/.local/bin/hf download ${MODEL} 2>&1 | tail -2 && du -sh ~/.cache/huggingface/hub/models--Qwen--Qwen3.5-122B-A10B-FP8`,
      `Download Qwen3.5-122B-A10B-FP8 on ${node}`,
      [
        `Fetching 58 files: 100%|██████████| 58/58 [${minutesSeconds}<00:00, ${rate}s/it]`,
        `/home/aurora/.cache/huggingface/hub/models--Qwen--Qwen3.5-122B-A10B-FP8/snapshots/${snapshotRev}`,
        '119G\t/home/aurora/.cache/huggingface/hub/models--Qwen--Qwen3.5-122B-A10B-FP8',
      ].join('\n') + '\n',
      durationMs,
      { timeout: 3_600_000 },
    );
  s.assistant({
    text: '`hf` is installed in `~/.local/bin` (not on the non-interactive PATH, so I call it by path). Starting the ~119 GB download on both Sparks in parallel; this takes a while.',
    tools: [download(HEAD, 'head', '29:52', '30.90', 1_797_418), download(WORKER, 'worker', '32:31', '33.64', 1_955_207)],
  });

  // 25
  s.assistant({
    reasoning: 'Both nodes have the same 119G snapshot. Next the Ray cluster over the CX7 link: confirm the interface and the RoCE device name on both nodes.',
    text: 'Model downloaded on both nodes (119G, same snapshot). Checking the CX7 interface and RoCE device on both before building the Ray cluster.',
    tools: [
      bash(HEAD, 'ip -br addr show enp1s0f1np1; ibdev2netdev | grep enp1s0f1np1', 'Check IB interface on head', 'enp1s0f1np1      UP             192.168.200.1/24 fe80::5e25:73ff:fe1a:2c41/64 \nrocep1s0f1 port 1 ==> enp1s0f1np1 (Up)\n', 1_412),
      bash(WORKER, 'ip -br addr show enp1s0f1np1; ibdev2netdev | grep enp1s0f1np1', 'Check IB interface on worker', 'enp1s0f1np1      UP             192.168.200.2/24 fe80::5e25:73ff:fe1a:5be9/64 \nrocep1s0f1 port 1 ==> enp1s0f1np1 (Up)\n', 1_388),
    ],
  });

  // 26
  s.assistant({
    tools: [
      bash(
        HEAD,
        'ping -c 3 -I enp1s0f1np1 192.168.200.2',
        'Ping worker over the IB link',
        [
          'PING 192.168.200.2 (192.168.200.2) from 192.168.200.1 enp1s0f1np1: 56(84) bytes of data.',
          '64 bytes from 192.168.200.2: icmp_seq=1 ttl=64 time=0.214 ms',
          '64 bytes from 192.168.200.2: icmp_seq=2 ttl=64 time=0.187 ms',
          '64 bytes from 192.168.200.2: icmp_seq=3 ttl=64 time=0.192 ms',
          '',
          '--- 192.168.200.2 ping statistics ---',
          '3 packets transmitted, 3 received, 0% packet loss, time 2031ms',
          'rtt min/avg/max/mdev = 0.187/0.197/0.214/0.011 ms',
        ].join('\n') + '\n',
        2_587,
      ),
    ],
    text: 'Both ends up on 192.168.200.0/24 via `rocep1s0f1`. Link check:',
  });

  // 27 + 28: Ray head, then worker.
  const rayEnv = (ip: string): string =>
    [
      'NCCL_SOCKET_IFNAME=enp1s0f1np1',
      'NCCL_IB_HCA=rocep1s0f1',
      'NCCL_IB_DISABLE=0',
      'UCX_NET_DEVICES=enp1s0f1np1',
      'GLOO_SOCKET_IFNAME=enp1s0f1np1',
      'TP_SOCKET_IFNAME=enp1s0f1np1',
      'OMPI_MCA_btl_tcp_if_include=enp1s0f1np1',
      'RAY_memory_monitor_refresh_ms=0',
      `VLLM_HOST_IP=${ip}`,
      'MASTER_ADDR=192.168.200.1',
    ]
      .map((kv) => `-e ${kv}`)
      .join(' ');
  const rayRun = (ip: string, rayArgs: string): string =>
    `docker run -d --name vllm-qwen35 --gpus all --net=host --ipc=host -v ~/.cache/huggingface:/root/.cache/huggingface ${rayEnv(ip)} ${SERVE_IMAGE} ray start ${rayArgs} --block`;
  s.assistant({
    reasoning: 'Link is fine (0.2 ms). Start the Ray head on spark-1a32 bound to the IB address, with the NCCL/UCX/Gloo interface variables pointing at enp1s0f1np1 and the HF cache mounted.',
    text: 'Link is good (~0.2 ms). Starting the Ray head on spark-1a32, bound to the IB address:',
    tools: [bash(HEAD, rayRun('192.168.200.1', '--head --port 6379 --node-ip-address 192.168.200.1'), 'Start Ray head container on head', `${randomHex(64)}\n`, 1_942)],
  });
  s.assistant({
    text: 'Head is up. Joining the worker:',
    tools: [bash(WORKER, rayRun('192.168.200.2', '--address=192.168.200.1:6379 --node-ip-address 192.168.200.2'), 'Start Ray worker container on worker', `${randomHex(64)}\n`, 2_118)],
  });

  // 29
  s.assistant({
    text: 'Checking the cluster sees both nodes and both GPUs.',
    tools: [
      bash(
        HEAD,
        'docker exec vllm-qwen35 ray status',
        'Check Ray cluster status',
        [
          '======== Autoscaler status: 2026-02-26 15:08:19.482117 ========',
          'Node status',
          '---------------------------------------------------------------',
          'Active:',
          ` 1 node_${randomHex(56)}`,
          ` 1 node_${randomHex(56)}`,
          'Pending:',
          ' (no pending nodes)',
          'Recent failures:',
          ' (no failures)',
          '',
          'Resources',
          '---------------------------------------------------------------',
          'Total Usage:',
          ' 0.0/40.0 CPU',
          ' 0.0/2.0 GPU',
          ' 0B/214.62GiB memory',
          ' 0B/19.48GiB object_store_memory',
          '',
          'Total Constraints:',
          ' (no request_resource() requests)',
          'Total Demands:',
          ' (no resource demands)',
        ].join('\n') + '\n',
        3_904,
      ),
    ],
  });

  // 30
  const serveCommand = `vllm serve ${MODEL} --max-model-len 262144 --gpu-memory-utilization 0.7 --port 8000 --host 0.0.0.0 --enable-prefix-caching --enable-auto-tool-choice --tool-call-parser qwen3_coder --reasoning-parser qwen3 -tp 2 --distributed-executor-backend ray --max-num-batched-tokens 8192`;
  s.assistant({
    reasoning: 'Two nodes, two GPUs. Launch vllm serve inside the head container in the background with its log in a file, so the bash tool is not held for the ~10 minute load.',
    text: 'Ray: 2 nodes, 2 GPUs. Launching `vllm serve` in the head container, detached, logging to `/tmp/vllm-serve.log`:',
    tools: [bash(HEAD, `docker exec -d vllm-qwen35 bash -c "${serveCommand} > /tmp/vllm-serve.log 2>&1"`, 'Start vLLM server with TP=2 over Ray', '', 1_206)],
  });
  const serveStartedAt = new Date(s.now - 900);

  // 31: the first health check fails (curl exit 7: connection refused).
  s.assistant({
    text: 'Server launched. Checking health (expected to fail while the weights load):',
    tools: [bash(HEAD, 'curl -s -o /dev/null -w "%{http_code}" localhost:8000/health', 'Check vLLM health endpoint', '000', 318, { exit: 7 })],
  });

  // 32
  const sinceServe = (): number => (s.now - serveStartedAt.getTime()) / 1000;
  const tailAfter = (waitSec: number, count: number): string =>
    serveLog(serveStartedAt, sinceServe() + waitSec + 4).trimEnd().split('\n').slice(-count).join('\n') + '\n';
  s.assistant({
    text: 'Connection refused (exit 7), as expected while it loads. Giving it a minute, then looking at the log:',
    tools: [bash(HEAD, 'sleep 60; docker exec vllm-qwen35 tail -n 6 /tmp/vllm-serve.log', 'Wait a minute then tail vLLM serve log', tailAfter(60, 6), 60_912)],
  });

  // 33
  s.assistant({
    reasoning: 'Loading at ~5.5 s per shard across 49 shards, then torch.compile and CUDA graph capture: roughly ten minutes in total. Wait eight minutes and look again.',
    text: 'Weights are loading on both ranks (~5.5 s/shard, 49 shards), then torch.compile and CUDA graphs. Waiting ~8 minutes before checking again.',
    tools: [
      bash(HEAD, 'sleep 480; docker exec vllm-qwen35 tail -n 4 /tmp/vllm-serve.log', 'Wait for model load then tail log', tailAfter(480, 4), 481_372, {
        timeout: 600_000,
      }),
    ],
  });

  // 34
  s.assistant({
    text: '"Application startup complete." Health check again:',
    tools: [bash(HEAD, 'curl -s -o /dev/null -w "%{http_code}" localhost:8000/health', 'Check vLLM health endpoint', '200', 296)],
  });

  // 35: a full `cat` of the log; opencode truncates it (over 50 KB) and saves the whole to tool-output/.
  s.assistant({
    text: '200. Reading the full serve log to check both ranks loaded and the KV cache size.',
    tools: [bash(HEAD, 'docker exec vllm-qwen35 cat /tmp/vllm-serve.log', 'Read full vLLM serve log', serveLog(serveStartedAt), 1_131)],
  });

  // 36
  const modelsCreated = Math.floor(s.now / 1000) + 40;
  s.assistant({
    reasoning: 'Both ranks loaded 58.94 GiB each; KV cache 17.06 GiB per rank, 358,912 tokens, 5.25x concurrency at the full 262,144 context. Verify the model list and a real completion.',
    text: 'Both ranks loaded (58.94 GiB each); KV cache 358,912 tokens, 5.25× concurrency at 262K context. Checking the model list:',
    tools: [
      bash(
        HEAD,
        'curl -s localhost:8000/v1/models | python3 -m json.tool',
        'List served models',
        JSON.stringify(
          {
            object: 'list',
            data: [
              {
                id: MODEL,
                object: 'model',
                created: modelsCreated,
                owned_by: 'vllm',
                root: MODEL,
                parent: null,
                max_model_len: 262144,
                permission: [
                  {
                    id: `modelperm-${randomHex(32)}`,
                    object: 'model_permission',
                    created: modelsCreated,
                    allow_create_engine: false,
                    allow_sampling: true,
                    allow_logprobs: true,
                    allow_search_indices: false,
                    allow_view: true,
                    allow_fine_tuning: false,
                    organization: '*',
                    group: null,
                    is_blocking: false,
                  },
                ],
              },
            ],
          },
          null,
          4,
        ) + '\n',
        402,
      ),
    ],
  });

  // 37
  const chatCreated = Math.floor(s.now / 1000) + 12;
  const chatBody = `{\\"model\\": \\"${MODEL}\\", \\"messages\\": [{\\"role\\": \\"user\\", \\"content\\": \\"What is 17 * 23? Answer with just the number.\\"}], \\"max_tokens\\": 64, \\"chat_template_kwargs\\": {\\"enable_thinking\\": false}}`;
  s.assistant({
    text: 'Served. A short chat completion end to end (same key the proxy clients use):',
    tools: [
      bash(
        HEAD,
        `curl -s localhost:8000/v1/chat/completions -H "Content-Type: application/json" -H "Authorization: Bearer ${FAKE_API_KEY}" -d "${chatBody}" | python3 -m json.tool`,
        'Send a test chat completion',
        JSON.stringify(
          {
            id: `chatcmpl-${randomHex(32)}`,
            object: 'chat.completion',
            created: chatCreated,
            model: MODEL,
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: '391',
                  refusal: null,
                  annotations: null,
                  audio: null,
                  function_call: null,
                  tool_calls: [],
                  reasoning_content: null,
                },
                logprobs: null,
                finish_reason: 'stop',
                stop_reason: null,
                token_ids: null,
              },
            ],
            service_tier: null,
            system_fingerprint: null,
            usage: { prompt_tokens: 29, total_tokens: 32, completion_tokens: 3, prompt_tokens_details: null },
            prompt_logprobs: null,
            prompt_token_ids: null,
            kv_transfer_params: null,
          },
          null,
          4,
        ) + '\n',
        1_486,
      ),
    ],
  });

  // 38
  s.assistant({
    text: 'Correct answer (391). Final checks: the worker\'s embeddings must still be up, and memory use on the head.',
    tools: [
      bash(
        WORKER,
        'docker ps --format "{{.Names}}\\t{{.Status}}"; curl -s -o /dev/null -w "%{http_code}\\n" localhost:8001/health',
        'Check worker containers and embeddings health',
        'vllm-qwen35\tUp 31 minutes\nvllm-embeddings\tUp 12 days\n200\n',
        1_603,
      ),
      bash(
        HEAD,
        'nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv',
        'Show GPU processes on head',
        'pid, process_name, used_memory [MiB]\n2214, ray::RayWorkerWrapper, 84161 MiB\n',
        1_102,
      ),
    ],
  });

  // 39
  s.assistant({
    text: [
      `Qwen3.5-122B-A10B-FP8 is serving across both Sparks on \`http://10.1.230.180:8000/v1\` (OpenAI-compatible).`,
      '',
      `- image: \`${SERVE_IMAGE}\` (vLLM 0.17.0rc1.dev58, transformers 5.2.0)`,
      '- Ray over the CX7 link: head 192.168.200.1 (spark-1a32), worker 192.168.200.2 (spark-5be3), container `vllm-qwen35` on both',
      '- `vllm serve … -tp 2 --distributed-executor-backend ray`, max context 262,144, KV cache 358,912 tokens',
      '- spark-5be3\'s embeddings untouched (Up 12 days, /health 200); the head\'s GLM cluster, proxy, embeddings and reranker are stopped',
      '',
      'Rejected on the way: vllm-spark:v0.14.0rc2.dev262 (no Qwen3.5 architecture), lmsysorg/sglang:spark (SGLang 0.5.4, transformers 4.57.1), scitrera/dgx-spark-sglang:0.5.10rc0 (SGLang 0.0.0, transformers 4.57.6).',
      '',
      'Note: nothing restarts this after a reboot yet; if you want it permanent I can wrap both containers in systemd units like the old vllm-cluster.',
    ].join('\n'),
  });

  // 40
  s.user('nice. how fast is it single-stream?', { gapMs: 131_000 });

  // 41
  const completionBody = `{\\"model\\": \\"${MODEL}\\", \\"prompt\\": \\"Write a short story about two computers that share one brain.\\", \\"max_tokens\\": 512, \\"ignore_eos\\": true}`;
  s.assistant({
    reasoning: 'Measure a single request with a fixed 512-token output (ignore_eos) and wall-clock it.',
    text: 'Timing a single 512-token completion:',
    tools: [
      bash(
        HEAD,
        `time curl -s localhost:8000/v1/completions -H "Content-Type: application/json" -H "Authorization: Bearer ${FAKE_API_KEY}" -d "${completionBody}" | python3 -c "import json,sys; print(json.load(sys.stdin)[\\"usage\\"])"`,
        'Time a 512-token completion',
        "{'prompt_tokens': 13, 'total_tokens': 525, 'completion_tokens': 512, 'prompt_tokens_details': None}\n\nreal\t0m23.917s\nuser\t0m0.038s\nsys\t0m0.014s\n",
        24_103,
      ),
    ],
  });

  // 42
  s.assistant({
    text: 'About **21.4 tokens/s** single-stream (512 tokens in 23.9 s, including prefill and the HTTP round trip). That is in line with a 10B-active MoE at FP8 split over two GB10s, where every token crosses the 40 Gbps RoCE link twice per layer group. Throughput under concurrency will be much higher than 21 tok/s × users suggests, thanks to batching; I can run a concurrency sweep if you want numbers for that.',
  });

  return s.build('Deploy Qwen3.5-122B-A10B-FP8 on dual DGX Spark');
}

const PEP668_ERROR = [
  'error: externally-managed-environment',
  '',
  '× This environment is externally managed',
  '╰─> To install Python packages system-wide, try apt install',
  '    python3-xyz, where xyz is the package you are trying to',
  '    install.',
  '    ',
  '    If you wish to install a non-Debian-packaged Python package,',
  '    create a virtual environment using python3 -m venv path/to/venv.',
  '    Then use path/to/venv/bin/python to run it.',
  '    ',
  '    If you wish to install a non-Debian packaged Python application,',
  '    it may be easiest to use pipx install xyz, which will manage a',
  '    virtual environment for you. Make sure you have pipx installed.',
  '    ',
  '    See /usr/share/doc/python3.12/README.venv for more information.',
  '',
  'note: If you believe this is a mistake, please contact your Python installation or OS distribution provider. You can override this, at the risk of breaking your Python installation or OS, by passing --break-system-packages.',
  'hint: See PEP 668 for the detailed specification.',
  '',
].join('\n');

const PIP_SUCCESS = [
  "  WARNING: The scripts hf and tiny-agents are installed in '/home/aurora/.local/bin' which is not on PATH.",
  "  Consider adding this directory to PATH or, if you prefer to suppress this warning, use --no-warn-script-location.",
  'Successfully installed hf-xet-1.2.1 huggingface_hub-1.4.1',
  '',
].join('\n');

// ───────────────────────── write ─────────────────────────

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const session = buildSession();
const sessionInfo = session.info as { id: string };
const outDir = join(root, 'sessions');
const outFile = join(outDir, `${sessionInfo.id}.json`);
// opencode export prints JSON.stringify(data, null, 2) followed by EOL.
const built = `${JSON.stringify(session, null, 2)}\n`;
if (process.argv.includes('--check')) {
  if (!existsSync(outFile) || readFileSync(outFile, 'utf8') !== built) {
    console.error(`${outFile} differs from what scripts/build-sample.ts builds: run \`npx tsx scripts/build-sample.ts\` and commit it`);
    process.exit(1);
  }
  console.log(`${outFile} is up to date`);
} else {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(outFile, built);
  console.log(`wrote ${outFile}`);
}
