// The schema of the evaluation corpus: a story is data (a session as turns, plus its labels), and a
// label-only entry points at a transcript kept elsewhere. Blind writers add stories against this
// file, so every field is documented in eval/README.md and changes here must stay backwards
// compatible.
import { z } from 'zod';

export const AGENTS = ['claude', 'codex', 'opencode-export', 'opencode-db'] as const;

export const FRAMEWORKS = [
  'vllm', 'sglang', 'tensorrt-llm', 'nim', 'tgi', 'ollama', 'llama.cpp',
  'exllamav2', 'tabbyapi', 'lmdeploy', 'mlc', 'other',
] as const;

/** Failure shapes a story can cover; scores are also reported per shape. */
export const SHAPES = [
  'cuda-oom-load', 'cuda-oom-build', 'no-kernel-image', 'sm-arch-missing', 'no-arm64-manifest',
  'manifest-unknown', 'registry-401-403', 'gated-model-login', 'pip-resolution-impossible',
  'nccl-timeout', 'hip-no-binary', 'disk-full', 'too-slow', 'arch-not-in-registry',
  'failure-hidden-by-tail', 'pull-timeout-retry', 'worker-never-joins', 'container-toolkit-missing',
  'kv-cache-too-small', 'corrupt-download', 'glibc-too-old', 'port-in-use', 'oom-killed',
  'driver-too-old', 'flag-unrecognized', 'shm-too-small', 'garbage-output', 'chat-template-missing',
  'ssl-certificate', 'max-len-exceeds-model', 'device-busy', 'device-permission', 'shared-lib-missing',
  'kernel-too-old',
] as const;

/** How a Codex version calls its shell and formats what the model sees (docs/formats/codex.md). */
export const CODEX_STYLES = [
  'shell-json',      // `shell` with an argv array, output `{"output":…,"metadata":{exit_code,duration_seconds}}`
  'shell-freeform',  // `shell` with an argv array, output `Exit code: N\nWall time: …\nOutput:\n…`
  'shell-command',   // `shell_command` with one string, freeform output
  'unified-exec',    // `exec_command` + `write_stdin`, `Chunk ID: …\nProcess exited with code N` output
] as const;

const kebab = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'kebab-case: lowercase words joined by "-"');
const seconds = z.number().nonnegative();

// ---------------------------------------------------------------- tool calls

const callCommon = {
  /** How long the call ran; the renderer picks a plausible short time when absent. */
  seconds: seconds.optional(),
};

const BashCall = z.strictObject({
  tool: z.literal('bash'),
  command: z.string().min(1),
  /** `user@host`: the renderer wraps the command as `ssh user@host '<command>'`, quoted. */
  ssh: z.string().optional(),
  /** The short description agents attach to a shell call (Claude Code, opencode). */
  description: z.string().optional(),
  /** What the command printed (stdout, or stdout and stderr interleaved when it used 2>&1). */
  output: z.string().default(''),
  /** stderr kept apart (Claude Code records it separately); other agents append it to output. */
  stderr: z.string().optional(),
  /** Exit status; null when the process was killed (timeout) or never reported one. */
  exit: z.number().int().nullable().default(0),
  /** The agent's tool gave up on the command: exit is null and seconds is the tool's limit. */
  timeout: z.boolean().default(false),
  /** The timeout the agent asked for, in ms (else the agent's default). */
  timeout_ms: z.number().int().positive().optional(),
  /** The user refused the call: nothing ran. */
  rejected: z.boolean().default(false),
  ...callCommon,
});

const ReadCall = z.strictObject({
  tool: z.literal('read'),
  path: z.string().min(1),
  /** The file's text as read. */
  output: z.string(),
  ...callCommon,
});

const EditCall = z.strictObject({
  tool: z.literal('edit'),
  path: z.string().min(1),
  old: z.string(),
  new: z.string(),
  ...callCommon,
});

const WriteCall = z.strictObject({
  tool: z.literal('write'),
  path: z.string().min(1),
  content: z.string(),
  ...callCommon,
});

const SearchResult = z.strictObject({
  title: z.string(),
  url: z.string(),
  text: z.string().default(''),
});

const WebSearchCall = z.strictObject({
  tool: z.literal('websearch'),
  query: z.string().min(1),
  results: z.array(SearchResult).default([]),
  /** The prose answer the search tool returns with its links (Claude Code). */
  summary: z.string().optional(),
  ...callCommon,
});

const WebFetchCall = z.strictObject({
  tool: z.literal('webfetch'),
  url: z.string().min(1),
  prompt: z.string().optional(),
  output: z.string(),
  ...callCommon,
});

const TodoCall = z.strictObject({
  tool: z.literal('todo'),
  items: z.array(z.strictObject({
    text: z.string(),
    status: z.enum(['pending', 'in_progress', 'completed']),
  })).min(1),
  ...callCommon,
});

const LeafCall = z.discriminatedUnion('tool', [
  BashCall, ReadCall, EditCall, WriteCall, WebSearchCall, WebFetchCall, TodoCall,
]);

/** One model step of a subagent: no nested subagents. */
const SubagentStep = z.strictObject({
  reasoning: z.string().optional(),
  text: z.string().optional(),
  calls: z.array(LeafCall).default([]),
  think: seconds.optional(),
});

const TaskCall = z.strictObject({
  tool: z.literal('task'),
  description: z.string().min(1),
  prompt: z.string().min(1),
  subagent_type: z.string().default('general-purpose'),
  /** The subagent's final report, which the parent sees as the result. */
  output: z.string(),
  /** What the subagent did (its own transcript where the agent keeps one). */
  steps: z.array(SubagentStep).default([]),
  ...callCommon,
});

export const Call = z.discriminatedUnion('tool', [
  BashCall, ReadCall, EditCall, WriteCall, WebSearchCall, WebFetchCall, TodoCall, TaskCall,
]);

// ---------------------------------------------------------------- turns

/** One model step: what one API response held (reasoning, text, tool calls). */
export const AssistantStep = z.strictObject({
  reasoning: z.string().optional(),
  text: z.string().optional(),
  /** Calls of one step run in parallel unless `sequential`. */
  calls: z.array(Call).default([]),
  sequential: z.boolean().default(false),
  /** Seconds the model took before its first output (else derived from the text's length). */
  think: seconds.optional(),
});

const UserTurn = z.strictObject({
  user: z.string().min(1),
  /** Seconds since the previous turn ended (the human reading and typing). */
  after: seconds.optional(),
});

const AssistantTurn = z.strictObject({
  assistant: AssistantStep,
  after: seconds.optional(),
});

export const Turn = z.union([UserTurn, AssistantTurn]);

// ---------------------------------------------------------------- labels

export const Candidate = z.strictObject({
  /** The candidate as a careful reader would name it: image ref, `pkg==version`, or a short approach name. */
  name: z.string().min(1),
  /** Other spellings a reader may use for the same candidate. */
  aliases: z.array(z.string().min(1)).default([]),
  kind: z.enum(['image', 'framework', 'approach']),
  framework: z.enum(FRAMEWORKS).optional(),
  verdict: z.enum(['rejected', 'accepted', 'untested']),
  /** Decisive evidence words a correct reason must contain (case-insensitive). */
  reason_keywords: z.array(z.string().min(1)).default([]),
});

export const Attempt = z.strictObject({
  kind: z.enum(['pull', 'download']),
  /** The image or the model id. */
  subject: z.string().min(1),
  outcome: z.enum(['ok', 'failed', 'timeout']),
  /** Host (address or name) when the same subject was fetched on several machines. */
  host: z.string().optional(),
});

export const PlanStep = z.strictObject({
  /** Host (address or name) the step runs on; omitted for the local machine or when it does not matter. */
  host: z.string().optional(),
  /** Words the step's command must all contain (case-insensitive). */
  must: z.array(z.string().min(1)).min(1),
});

const labelFields = {
  /** The user's deployment request, in a sentence. */
  goal: z.string().optional(),
  /** Words the extracted goal must contain. */
  goal_keywords: z.array(z.string().min(1)).default([]),
  /** False for sessions that deploy nothing: they must score 0 candidates and no plan. */
  deploys: z.boolean(),
  /** Every candidate: images, package versions, source builds, approaches, leads never tried. */
  candidates: z.array(Candidate).default([]),
  none_accepted: z.boolean().default(false),
  /** [from, to] by candidate name or alias, in the order they happened. */
  pivots: z.array(z.tuple([z.string(), z.string()])).default([]),
  /** Pulls and downloads, in order. */
  attempts: z.array(Attempt).default([]),
  /** The steps a careful engineer would keep to redeploy, in order. */
  plan: z.array(PlanStep).default([]),
};

const LabelsObject = z.strictObject(labelFields);
type LabelShape = z.infer<typeof LabelsObject>;

function checkLabels(labels: LabelShape, ctx: z.RefinementCtx, at: (string | number)[]): void {
  const names = new Map<string, number>();
  labels.candidates.forEach((candidate, index) => {
    for (const spelling of [candidate.name, ...candidate.aliases]) {
      const key = spelling.toLowerCase();
      if (names.has(key) && names.get(key) !== index) {
        ctx.addIssue({ code: 'custom', path: [...at, 'candidates', index, 'name'], message: `"${spelling}" names two candidates` });
      }
      names.set(key, index);
    }
  });
  labels.pivots.forEach((pivot, index) => {
    pivot.forEach((name, side) => {
      if (!names.has(name.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: [...at, 'pivots', index, side], message: `pivot names "${name}", which is no candidate or alias` });
      }
    });
  });
  const accepted = labels.candidates.some((candidate) => candidate.verdict === 'accepted');
  if (labels.deploys && labels.none_accepted === accepted) {
    ctx.addIssue({ code: 'custom', path: [...at, 'none_accepted'], message: `none_accepted is ${labels.none_accepted} but ${accepted ? 'a' : 'no'} candidate is accepted` });
  }
  if (!labels.deploys && (labels.candidates.length > 0 || labels.plan.length > 0 || labels.pivots.length > 0)) {
    ctx.addIssue({ code: 'custom', path: [...at, 'deploys'], message: 'a session that deploys nothing has no candidates, pivots or plan' });
  }
  if (labels.none_accepted && labels.plan.length > 0) {
    ctx.addIssue({ code: 'custom', path: [...at, 'plan'], message: 'nothing was accepted, so there is no plan to keep' });
  }
}

export const Labels = LabelsObject.superRefine((labels, ctx) => checkLabels(labels, ctx, []));

// ---------------------------------------------------------------- the story

/** How the session is rendered: who ran it, where, with which version of the agent. */
export const SessionSetup = z.strictObject({
  /** When the first prompt was typed (UTC). */
  start: z.iso.datetime(),
  cwd: z.string().startsWith('/'),
  /** The agent's version (Claude Code `2.1.19`, Codex `0.46.0`, opencode `1.2.6`). */
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  model: z.string().min(1),
  /** opencode's providerID (anthropic, openai, …). */
  provider: z.string().default('anthropic'),
  git_branch: z.string().default('main'),
  codex_style: z.enum(CODEX_STYLES).optional(),
  /** The session title the agent would show (opencode, Claude Code's ai-title). */
  title: z.string().optional(),
});

export const Story = z.strictObject({
  id: kebab,
  agent: z.enum(AGENTS),
  title: z.string().min(1),
  hardware: z.string().min(1),
  frameworks: z.array(z.enum(FRAMEWORKS)).min(1),
  shapes: z.array(z.enum(SHAPES)).default([]),
  session: SessionSetup,
  labels: Labels,
  turns: z.array(Turn).min(2),
}).superRefine((story, ctx) => checkTurns(story, ctx));

export type Story = z.infer<typeof Story>;
export type Turn = z.infer<typeof Turn>;
export type AssistantStep = z.infer<typeof AssistantStep>;
export type Call = z.infer<typeof Call>;
export type LeafCall = z.infer<typeof LeafCall>;
export type Labels = z.infer<typeof Labels>;
export type Candidate = z.infer<typeof Candidate>;
export type CodexStyle = (typeof CODEX_STYLES)[number];

export function isUserTurn(turn: Turn): turn is z.infer<typeof UserTurn> {
  return 'user' in turn;
}

/** An edit must find its old text in the file as the session last read or wrote it. */
function checkEdits(story: z.infer<typeof Story>, ctx: z.RefinementCtx): void {
  const files = new Map<string, string>();
  story.turns.forEach((turn, index) => {
    if (isUserTurn(turn)) return;
    turn.assistant.calls.forEach((call, callIndex) => {
      if (call.tool === 'read') files.set(call.path, call.output);
      if (call.tool === 'write') files.set(call.path, call.content);
      if (call.tool !== 'edit') return;
      const before = files.get(call.path);
      if (before === undefined) return;
      if (!before.includes(call.old)) {
        ctx.addIssue({ code: 'custom', path: ['turns', index, 'assistant', 'calls', callIndex, 'old'], message: `the old text is not in ${call.path} as the session last saw it` });
        return;
      }
      files.set(call.path, before.replace(call.old, call.new));
    });
  });
}

function checkTurns(story: z.infer<typeof Story>, ctx: z.RefinementCtx): void {
  checkEdits(story, ctx);
  if (story.agent === 'codex' && story.session.codex_style === undefined) {
    ctx.addIssue({ code: 'custom', path: ['session', 'codex_style'], message: 'a Codex story names its codex_style' });
  }
  if (!isUserTurn(story.turns[0]!)) {
    ctx.addIssue({ code: 'custom', path: ['turns', 0], message: 'a session starts with a user turn' });
  }
  story.turns.forEach((turn, index) => {
    if (isUserTurn(turn)) return;
    const next = story.turns[index + 1];
    const step = turn.assistant;
    if (step.calls.length > 0 && next !== undefined && isUserTurn(next)) {
      ctx.addIssue({ code: 'custom', path: ['turns', index + 1], message: 'after tool calls the model speaks again before the user does' });
    }
    if (step.calls.length === 0 && step.text === undefined) {
      ctx.addIssue({ code: 'custom', path: ['turns', index, 'assistant'], message: 'a step with no calls says something' });
    }
    step.calls.forEach((call, callIndex) => {
      const at = ['turns', index, 'assistant', 'calls', callIndex];
      if (call.tool === 'task' && story.agent === 'codex') {
        ctx.addIssue({ code: 'custom', path: at, message: 'Codex stories have no task calls' });
      }
      if (call.tool !== 'bash') return;
      if (call.timeout && call.exit !== null) {
        ctx.addIssue({ code: 'custom', path: [...at, 'exit'], message: 'a timed-out command has exit: null' });
      }
      if (call.timeout && story.session.codex_style === 'unified-exec') {
        ctx.addIssue({ code: 'custom', path: [...at, 'timeout'], message: 'unified exec has no kill timeout' });
      }
    });
  });
}

// ---------------------------------------------------------------- label-only entries

/** eval/real/*.yaml: labels for a transcript kept elsewhere (path relative to the YAML file). */
export const RealEntry = z.strictObject({
  id: kebab.optional(),
  transcript: z.string().min(1),
  /** The session to score when the transcript holds several. */
  session: z.string().optional(),
  agent: z.enum(AGENTS).optional(),
  title: z.string().optional(),
  frameworks: z.array(z.enum(FRAMEWORKS)).default([]),
  shapes: z.array(z.enum(SHAPES)).default([]),
  provenance: z.string().optional(),
  ...labelFields,
}).superRefine((entry, ctx) => checkLabels(entry, ctx, []));

export type RealEntry = z.infer<typeof RealEntry>;

/** eval/sets.yaml: which stories the rules have seen (development, held out, each fresh blind set). */
export const StorySets = z.strictObject({
  sets: z.record(z.string().regex(/^[a-z0-9-]+$/), z.array(z.string()).min(1)),
});
export type StorySets = z.infer<typeof StorySets>;

