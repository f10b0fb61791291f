import { flagOfKey, frameworkById, frameworks } from '../classify/index.js';
import { shapeKey } from '../classify/shape.js';
import type { TriedCandidate } from './tried.js';
import { approachNames, modelStem as stem, sameWeightsShorter, weightsName, type Token, type Variant } from './approach-names.js';
import type { TreeAction } from './types.js';
import { askedBetween, type UserAsk } from './user-asks.js';

/**
 * Approaches: the ways one candidate was run, when it was run in more than one. A way is the
 * setting its serves and builds were launched with: the layout flags or variables
 * (`--tensor-parallel-size 16` vs `--tensor-parallel-size 8 --pipeline-parallel-size 2`,
 * `NIM_MODEL_PROFILE`), the other options that changed between launches (`--max-model-len 131072`
 * then `--max-model-len 16384`, a rebuild with `-DCMAKE_CUDA_ARCHITECTURES=87`) and, when the
 * candidate served several builds of one model (`HF://…-q4f16_1-MLC` vs a local conversion), the
 * weights. What every launch shared says nothing; a launch with nothing of its own is the
 * candidate itself, not an approach. Health checks belong to the setting launched last before them;
 * probes and log reads to the one launched or built last.
 */
const SHAPE_KINDS = new Set(['serve', 'build']);
const FOLLOWER_KINDS = new Set(['health', 'probe', 'inspect']);
/** A container started to stay up doing nothing, for work done in it by `docker exec`. */
const IDLE_CONTAINER = /^(?:docker|podman|nerdctl) run\b.*\s(?:sleep (?:infinity|inf|\d{4,})|tail -f \/dev\/null)\s*$/;

type Framework = ReturnType<typeof frameworkById>;

interface Shaped {
  action: TreeAction;
  key: string;
  tokens: Token[];
  model: string | null;
}

function isShapeAction(action: TreeAction): boolean {
  // A program that runs the model once (`llama-bench`) tries the build with its own setting, as a launch does.
  if (action.rule === 'framework-probe') return action.framework !== null;
  if (!SHAPE_KINDS.has(action.kind) || action.rule === 'image-commit') return false;
  // A container that starts no serving stack (`docker run -d … nvcr.io/nvidia/pytorch … sleep infinity` to build in) is no setting.
  // Nor is a serving image's container kept idle to work in (`docker run -d … tritonserver:… sleep infinity`).
  if (action.kind === 'serve') return action.framework !== null && !IDLE_CONTAINER.test(action.command);
  // A source build is a setting only when it was configured with defines (`cmake -DCMAKE_CUDA_ARCHITECTURES=87`).
  if (action.rule === 'source-build') return action.framework !== null && Boolean(action.options);
  return action.framework !== null;
}

function servedModel(action: TreeAction): string | null {
  return action.baseModel ?? action.model ?? null;
}

/**
 * Several weights of one model (a quantization, a conversion): their names share a long stem. A name
 * that is another's stem cut short with no format in what is cut (`llama-3.3-70b` served for
 * `Llama-3.3-70B-Instruct`) is the same weights under a shorter served name.
 */
function modelsVary(actions: readonly TreeAction[]): boolean {
  const launches = actions.filter((a) => a.kind === 'serve' || a.rule === 'framework-probe');
  // A path served under a name elsewhere (`--model-path /models/X --served-model-name x`) is those weights, named.
  // The path as a whole word: `/models/X` is no part of `/models/X-AWQ`.
  const typedIn = (command: string, m: string): boolean => new RegExp(`${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])`).test(command);
  const servedAs = (m: string): boolean => /^[~/]/.test(m) && launches.some((a) => servedModel(a) !== m && typedIn(a.command, m));
  const all = [...new Set(launches.map(servedModel).filter((m): m is string => m !== null && !servedAs(m)))];
  const shorter = (m: string): boolean => all.some((other) => other !== m && stem(other) !== stem(m) && sameWeightsShorter(stem(m), stem(other)));
  // One file or folder reached by two paths (`~/models/x.gguf`, `/home/me/models/x.gguf`) is one weights.
  const models = all.filter((m) => !shorter(m)).filter((m, i, kept) => kept.findIndex((o) => weightsName(o).toLowerCase() === weightsName(m).toLowerCase()) === i);
  return models.length >= 2;
}

const LAYOUT_LABELS = new Set(['--tp', '--pp', '--dp', '--ep', '--nnodes']);

/** The union over every framework of one list, for a launch of no known framework: built once per rule set, not per word. */
function unionPerRules(listOf: (framework: NonNullable<Framework>) => readonly string[]): () => Set<string> {
  const byRules = new WeakMap<readonly NonNullable<Framework>[], Set<string>>();
  return () => {
    const all = frameworks();
    let union = byRules.get(all);
    if (!union) {
      union = new Set(all.flatMap(listOf));
      byRules.set(all, union);
    }
    return union;
  };
}
const unionDefining = unionPerRules((f) => f.definingOptions);
const unionPresets = unionPerRules((f) => f.presetOptions);

function presetOption(flag: string, framework: Framework): boolean {
  return framework ? framework.presetOptions.includes(flag) : unionPresets().has(flag);
}

/** Whether an option (as typed, without its value) changes what the deployment is. */
function definingOption(flag: string, framework: Framework): boolean {
  if (/^-D[A-Z]/.test(flag)) return true;
  return framework ? framework.definingOptions.includes(flag) : unionDefining().has(flag);
}

/** The words of a setting: `--flag value` pairs, lone flags, `NAME=value` variables and `-DNAME=VALUE` defines. */
function tokensOf(text: string | null | undefined, framework: Framework, source: 'shape' | 'options'): Token[] {
  const words = (text ?? '').split(' ').filter(Boolean);
  const tokens: Token[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const next = words[i + 1];
    // A config file's setting (`cache_mode: Q4`) is its stack's option (`--cache_mode`), spoken as the file spells it.
    const fileKey = /^([A-Za-z][\w.-]*):$/.exec(word)?.[1];
    if (fileKey && next !== undefined) {
      const flag = flagOfKey(fileKey, framework) ?? `--${fileKey}`;
      const option = shapeKey(flag, framework);
      const role = source === 'shape' ? 'shape' : definingOption(flag, framework) ? 'defining' : 'routine';
      tokens.push({ typed: `${fileKey} ${next}`, option, key: `${option}=${next}`, layout: LAYOUT_LABELS.has(option), preset: presetOption(flag, framework), role });
      i += 1;
      continue;
    }
    const paired = /^--?[a-z]/i.test(word) && !/^-D[A-Z]/.test(word) && next !== undefined && !next.startsWith('-') && !/^[A-Z][A-Z0-9_]*=/.test(next);
    const option = shapeKey(word.split('=')[0] as string, framework);
    const given = paired ? (next as string) : /=/.test(word) ? word.slice(word.indexOf('=') + 1) : '';
    // A path (the weights a defining option loads) is the file or folder it names, as weights are: `UD-Q2_K_XL` for `--gguf_path /data/gguf/UD-Q2_K_XL`.
    const path = /^[~/]/.test(given);
    const value = path ? weightsName(given) : given;
    const role = source === 'shape' ? 'shape' : definingOption(word.split('=')[0] as string, framework) ? 'defining' : 'routine';
    const preset = value !== '' && presetOption(word.split('=')[0] as string, framework);
    tokens.push({ typed: path ? value : paired ? `${word} ${next as string}` : word, option, key: `${option}=${value}`, layout: LAYOUT_LABELS.has(option), preset, role });
    if (paired) i += 1;
  }
  return tokens;
}

interface BuildRun {
  start: number;
  tokens: Token[];
  /** What the build's own steps set (the rest it kept from the build before it). */
  own: Token[];
  steps: TreeAction[];
  /** The options in force per build step (`trtllm-build`, `convert_checkpoint.py`; '' for a step of no known program). */
  stages: Map<string, Token[]>;
}

/** The options of a build's steps together, a later step's value over an earlier one's. */
function stagedTokens(stages: ReadonlyMap<string, Token[]>): Token[] {
  return [...stages.values()].reduce<Token[]>((all, stage) => updated(all, stage), []);
}

/** The tokens of `first`, then those of `then` for options `first` does not set. */
function over(first: readonly Token[], then: readonly Token[]): Token[] {
  return [...first, ...then.filter((t) => !first.some((f) => f.option === t.option))];
}

/** `base` in its order with the values `step` sets instead, then what `step` adds. */
function updated(base: readonly Token[], step: readonly Token[]): Token[] {
  return [...base.map((t) => step.find((s) => s.option === t.option) ?? t), ...step.filter((s) => !base.some((t) => t.option === s.option))];
}

/** The build directory a configure step names (`cmake -S . -B build-vk`, `meson setup builddir`), or null. */
function buildDir(command: string): string | null {
  return /(?:^|\s)-B\s*(\S+)/.exec(command)?.[1] ?? /\bmeson\s+setup\s+(?:-\S+\s+)*([^\s-]\S*)/.exec(command)?.[1] ?? null;
}

function otherBuildDir(a: TreeAction, b: TreeAction): boolean {
  const [x, y] = [buildDir(a.command), buildDir(b.command)];
  return x !== null && y !== null && x !== y;
}

function failing(action: TreeAction): boolean {
  return action.outcome === 'failed' || action.outcome === 'negative' || action.hits.some((h) => h.effect === 'failure' || h.effect === 'negative');
}

/**
 * Each shape action with the whole setting in force when it ran. Build steps in a row form one
 * build (`quantize.py --tp_size 2`, then `trtllm-build --max_batch_size 256`); a step that sets an
 * option the build already set, or one after a launch, starts the next build, which keeps the
 * earlier build's options it does not set again. A build is keyed with the launch it builds for (the
 * next one), a launch with the build before it. Layout options always count; any other option only
 * when it changed after the setting before it failed (the fix), not when it was tuned on a working
 * server. What every launch and build shared tells none of them apart.
 */
function shapedActions(parent: TriedCandidate, slowAt: readonly number[], asks: readonly UserAsk[]): Shaped[] {
  const byModel = modelsVary(parent.actions);
  const frameworkOf = (action: TreeAction): Framework => frameworkById(action.framework ?? parent.framework);
  const shapes = parent.actions.filter(isShapeAction);
  const layoutOf = (action: TreeAction): Token[] => tokensOf(action.config, frameworkOf(action), 'shape');
  const optionsOf = (action: TreeAction): Token[] => tokensOf(action.options, frameworkOf(action), 'options');
  const ordinals = new Map(parent.actions.map((a) => [a.seq, a.messageOrdinal]));
  const ordinalOf = (seq: number): number => ordinals.get(seq) ?? -1;
  // A run judged too slow failed as surely as one that crashed: what is changed after it is the fix tried. A message's words
  // come before its calls, so a judgement in the message of the next launch is of the run before it.
  const judgedSlow = (from: number, to: number): boolean => slowAt.some((o) => o > ordinalOf(from) && o <= ordinalOf(to));
  const crashedBetween = (from: number, to: number): boolean => parent.actions.some((a) => a.seq >= from && a.seq < to && failing(a));
  const failedBetween = (from: number, to: number): boolean => crashedBetween(from, to) || judgedSlow(from, to);
  // The builds (each with its accumulated options) and each launch's own options, in order.
  const runs: BuildRun[] = [];
  const launchOf = new Map<TreeAction, Token[]>();
  let open: BuildRun | null = null;
  let lastLaunch: { seq: number; options: Token[]; compared: boolean } | null = null;
  const launched: { options: Token[] }[] = [];
  for (const action of shapes) {
    if (action.kind !== 'build') {
      open = null;
      // A probe's routine options (`llama-bench -p 512 -n 128`, `llama-cli -n 16`) measure; only its layout and defining options (`--rpc`) are a setting.
      if (action.rule === 'framework-probe') {
        launchOf.set(action, [...layoutOf(action), ...optionsOf(action).filter((t) => t.role === 'defining')]);
        continue;
      }
      // On a server that worked, a routine flag changed is tuning (the earlier ones stay); a defining option changed is a
      // deliberate comparison, which keeps the routine flags of the last launch of that same setting (going back to it).
      const working: boolean = lastLaunch !== null && !failedBetween(lastLaunch.seq, action.seq);
      // On a server that worked, a value the user asked for since ("now add --context-length 32768") is the request refined, not a way tried.
      const before = lastLaunch;
      const askedFor = (t: Token): boolean => before !== null && working && t.role === 'defining' && !before.options.some((o) => o.key === t.key) && askedBetween(asks, t.key, ordinalOf(before.seq), ordinalOf(action.seq));
      const own: Token[] = optionsOf(action).filter((t) => !askedFor(t));
      const definingKey = (tokens: readonly Token[]): string => tokens.filter((t) => t.role === 'defining').map((t) => t.key).sort().join(' ');
      const sameSetting = [...launched].reverse().find((l) => definingKey(l.options) === definingKey(own));
      const routineFrom = sameSetting ?? lastLaunch;
      // A setting tried as a comparison that failed is mended within itself: the flag that fixed it (`--cuda-graph-max-bs 16`) is no setting of its own.
      const mended: boolean = lastLaunch !== null && !working && lastLaunch.compared && definingKey(own) === definingKey(lastLaunch.options);
      const options: Token[] = working || mended
        ? [...((working ? routineFrom : lastLaunch) as { options: Token[] }).options.filter((t) => t.role === 'routine'), ...own.filter((t) => t.role === 'defining')]
        : own;
      const compared: boolean = (working && definingKey(own) !== definingKey((lastLaunch as { options: Token[] }).options)) || mended;
      launched.push({ options });
      launchOf.set(action, [...layoutOf(action), ...options]);
      lastLaunch = { seq: action.seq, options, compared };
      continue;
    }
    const step = [...layoutOf(action), ...optionsOf(action)];
    const program = action.step ?? null;
    const stage = program ?? '';
    const current: BuildRun | null = open;
    // A step joins the build unless it runs again a program the build ran (a rebuild), or sets again, to another value, an option one of the build's own steps set.
    const rerun = program !== null && current !== null && current.steps.some((s) => s.step === program);
    if (current && !rerun && !step.some((t) => current.own.some((b) => b.option === t.option && b.key !== t.key))) {
      current.stages.set(stage, updated(current.stages.get(stage) ?? [], step));
      current.tokens = stagedTokens(current.stages);
      current.own = updated(current.own, step);
      current.steps.push(action);
      continue;
    }
    const previous = runs.at(-1);
    // A build configured into another build directory (`cmake -B build-vk` after `-B build-hip`) starts afresh: it keeps nothing of the other.
    const elsewhere = previous !== undefined && otherBuildDir(previous.steps[0] as TreeAction, action);
    const afterFailure = !previous || failedBetween(previous.start, action.seq);
    // Options changed on a build that worked are tuning, not another approach: the earlier values stay.
    const counted = afterFailure ? step : step.filter((t) => t.layout || t.role === 'defining');
    // A program run again after a failure runs with what it is given now (an option left out is gone); the build's other steps keep theirs.
    const stages = new Map(elsewhere ? [] : (previous?.stages ?? []));
    stages.set(stage, program !== null && afterFailure ? counted : over(counted, stages.get(stage) ?? []));
    open = { start: action.seq, tokens: stagedTokens(stages), own: counted, steps: [action], stages };
    runs.push(open);
  }
  const runOf = (action: TreeAction): Token[] => runs.find((r) => r.steps.includes(action))?.tokens ?? [];
  const runBefore = (seq: number): Token[] => runs.filter((r) => r.start < seq).at(-1)?.tokens ?? [];
  const launches = shapes.filter((a) => a.kind !== 'build');
  const nextModel = (seq: number): string | null => {
    const next = launches.find((l) => l.seq > seq) ?? launches.at(-1);
    return byModel && next ? servedModel(next) : null;
  };
  const shaped: Shaped[] = shapes.map((action) => {
    if (action.kind === 'build') {
      const next = launches.find((l) => l.seq > action.seq) ?? launches.at(-1);
      return { action, key: '', tokens: over(runOf(action), next ? (launchOf.get(next) ?? []) : []), model: nextModel(action.seq) };
    }
    return { action, key: '', tokens: over(launchOf.get(action) ?? [], runBefore(action.seq)), model: byModel ? servedModel(action) : null };
  });
  const shared = new Set(shaped[0]?.tokens.map((t) => t.key).filter((key) => shaped.every((s) => s.tokens.some((t) => t.key === key))) ?? []);
  // A routine flag tried against slowness is tuning that was measured, not a retry that fixed nothing.
  const noise = retriedRoutine(shaped, crashedBetween);
  for (const s of shaped) {
    s.tokens = s.tokens.filter((t) => !shared.has(t.key) && !noise.has(t.option));
    // One file reached by two paths (`~/models/x.gguf`, `/Users/me/models/x.gguf`) is one weights.
    s.key = `${s.tokens.map((t) => t.key).sort().join(' ')}|${s.model === null ? '' : weightsName(s.model)}`;
  }
  return probesJoinTheirLaunch(shaped, runBefore);
}

/**
 * A probe of the weights the next launch serves, with the same build in force and nothing the
 * launch does not also set (`llama-bench -m X.gguf`, then `llama-server -m X.gguf -c 131072`),
 * tried that launch's setting ahead of it: it takes the launch's key instead of being a setting of
 * its own. A probe with a setting the launch changed (`--rpc` to another address) stays its own.
 */
function probesJoinTheirLaunch(shaped: Shaped[], buildBefore: (seq: number) => Token[]): Shaped[] {
  const buildKey = (seq: number): string => buildBefore(seq).map((t) => t.key).sort().join(' ');
  shaped.forEach((probe, index) => {
    if (probe.action.rule !== 'framework-probe') return;
    const launch = shaped.slice(index + 1).find((s) => s.action.kind !== 'build' && s.action.rule !== 'framework-probe');
    const between = shaped.slice(index + 1, launch ? shaped.indexOf(launch) : index + 1);
    if (!launch || launch.model !== probe.model || between.some((s) => s.model !== probe.model)) return;
    if (buildKey(probe.action.seq) !== buildKey(launch.action.seq)) return;
    if (!probe.tokens.every((t) => launch.tokens.some((l) => l.key === t.key))) return;
    probe.tokens = launch.tokens;
    probe.key = launch.key;
  });
  return shaped;
}

/**
 * Routine options changed after a failure that failed again the same way as before (`--workers 4`,
 * then `--workers 1` to read the whole log): the change fixed nothing, so it tells no approaches apart.
 */
function retriedRoutine(shaped: readonly Shaped[], failedBetween: (from: number, to: number) => boolean): Set<string> {
  const noise = new Set<string>();
  shaped.forEach((s, index) => {
    const before = shaped[index - 1];
    if (!before || index === 0) return;
    const changed = s.tokens.filter((t) => !before.tokens.some((b) => b.key === t.key));
    const dropped = before.tokens.filter((b) => !s.tokens.some((t) => t.option === b.option));
    const next = shaped.slice(index + 1).find((n) => n.tokens.some((t) => !s.tokens.some((o) => o.key === t.key)) || s.tokens.some((t) => !n.tokens.some((o) => o.key === t.key)));
    const failedAgain = failedBetween(s.action.seq, next?.action.seq ?? Number.MAX_SAFE_INTEGER);
    if (changed.length > 0 && dropped.length === 0 && changed.every((t) => t.role === 'routine') && failedBetween(before.action.seq, s.action.seq) && failedAgain) {
      for (const t of changed) noise.add(t.option);
    }
  });
  return noise;
}

/**
 * The first setting, when all it has of its own is what the next one left out (a build with
 * `--gemm_plugin`, then one without): it is how the candidate was run to begin with, the candidate
 * itself; only the setting that left it out is another approach.
 */
function baseOfDropped(keys: readonly string[], own: (key: string) => Shaped[]): string | null {
  const [first, second] = keys;
  if (first === undefined || second === undefined) return null;
  const a = (own(first)[0] as Shaped);
  const b = (own(second)[0] as Shaped);
  if (a.model !== b.model || a.tokens.length === 0) return null;
  const added = b.tokens.filter((t) => !a.tokens.some((o) => o.key === t.key));
  const left = a.tokens.filter((t) => !b.tokens.some((o) => o.option === t.option));
  return added.length === 0 && left.length === a.tokens.filter((t) => !b.tokens.some((o) => o.key === t.key)).length ? first : null;
}

/** Whether two keys' weights (after the `|`) read alike. */
function sameWeights(a: string, b: string): boolean {
  const weights = (key: string): string => weightsName(key.slice(key.indexOf('|') + 1)).toLowerCase();
  return weights(a) !== '' && weights(a) === weights(b);
}

/**
 * One way beside a start with nothing of its own that only built and failed (a conversion script at a wrong path): that
 * start never got as far as a setting, so what the way set in the steps after it tells nothing apart. No approaches.
 */
function onlyPastABrokenStart(keys: readonly string[], approachKeys: readonly string[], own: (key: string) => Shaped[]): boolean {
  if (approachKeys.length !== 1 || keys.length !== 2 || keys[0] !== '|') return false;
  const start = own('|');
  return start.every((s) => s.action.kind === 'build') && start.some((s) => failing(s.action));
}

/** `slowAt`: ordinals of the messages that judged a run too slow (verdicts.ts `slowJudgements`). */
/** `asks`: the user's messages, for options they asked for in the middle of a working deployment. */
export function addApproaches(tried: TriedCandidate[], prose = '', slowAt: readonly number[] = [], asks: readonly UserAsk[] = []): TriedCandidate[] {
  const result: TriedCandidate[] = [];
  for (const parent of tried) {
    result.push(parent);
    const shaped = shapedActions(parent, slowAt, asks);
    const keys = [...new Set(shaped.map((s) => s.key))];
    if (keys.length < 2) continue;
    const shapeAt = (seq: number): Shaped | undefined => shaped.filter((s) => s.action.seq < seq).at(-1);
    // A check reaches what was launched: a build after the launch (for other weights, and failed) serves nothing yet.
    const launchedAt = (seq: number): Shaped | undefined => shaped.filter((s) => s.action.seq < seq && s.action.kind !== 'build').at(-1) ?? shapeAt(seq);
    const settingOf = (action: TreeAction): Shaped | undefined => (action.kind === 'health' ? launchedAt(action.seq) : shapeAt(action.seq));
    const own = (key: string): Shaped[] => shaped.filter((s) => s.key === key);
    // A launch whose setting has nothing of its own (its weights only named alike to another's) is the candidate itself.
    const dropping = baseOfDropped(keys, own);
    // A setting with nothing of its own is the candidate itself, unless it is the one that left out what the base setting had.
    const approachKeys = keys.filter((k) => (k !== '|' || (dropping !== null && k === keys[1])) && k !== dropping && !(k.startsWith('|') && keys.some((o) => o !== k && o.startsWith('|') === false && sameWeights(k, o))));
    if (onlyPastABrokenStart(keys, approachKeys, own)) continue;
    const variantOf = (key: string): Variant => ({ model: (own(key)[0] as Shaped).model, tokens: (own(key)[0] as Shaped).tokens, command: (own(key)[0] as Shaped).action.command });
    // The base setting is named with the others (what they changed is told against it), then left to the candidate.
    const names = approachNames(prose, [...(dropping ? [dropping] : []), ...approachKeys].map(variantOf)).slice(dropping ? 1 : 0);
    approachKeys.forEach((key, index) => {
      const first = own(key)[0] as Shaped;
      const followers = parent.actions.filter((a) => !isShapeAction(a) && FOLLOWER_KINDS.has(a.kind) && (a.kind !== 'inspect' || a.hits.length > 0 || a.facts.length > 0) && settingOf(a)?.key === key);
      result.push({
        key: `${parent.key}#${key}`,
        name: names[index] as string,
        kind: 'approach',
        framework: first.action.framework ?? parent.framework,
        parentKey: parent.key,
        actions: [...own(key).map((s) => s.action), ...followers].sort((a, b) => a.seq - b.seq),
      });
    });
  }
  return result;
}
