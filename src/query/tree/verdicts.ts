import { describeFacts, reasonComponents, signatureNamed, type SignatureHit, type VersionFact } from '../classify/index.js';
import { clip, judgementClause, mentions, sentences } from './text.js';
import type { TriedCandidate } from './tried.js';
import type { EvidenceRef, TreeAction, TreeMessage, Verdict } from './types.js';

/**
 * A tried candidate's verdict, from its evidence in order: the last conclusive event decides.
 * A healthy service (health 200, model listed, completion answered) accepts; a negative probe or a
 * failure signature rejects — unless the candidate recovered later (a failed pull retried, an OOM
 * fixed by another shape). The reason is the facts and signatures that decided, plus the
 * assistant's own judgement from the text that followed. Nothing conclusive: `abandoned` when the
 * session moved on, `unknown` when it did not.
 */
export interface Judged {
  verdict: Verdict;
  reason: string;
  evidence: EvidenceRef[];
  followup: { message_ordinal: number; text: string } | null;
}

const RUNTIME_KINDS = new Set(['probe', 'serve', 'start', 'cluster', 'install', 'build']);

/**
 * The service answered: a health check that came back ok, or a server's own "ready" line (SGLang's
 * "ready to roll", Uvicorn's "Application startup complete") read in its log or its output with no
 * failure beside it.
 */
function isHealthy(action: TreeAction): boolean {
  if (action.kind === 'health') return action.outcome === 'ok';
  if (action.kind !== 'inspect' && action.kind !== 'serve') return false;
  return action.outcome !== 'failed' && action.hits.some((h) => h.effect === 'ready') && !action.hits.some((h) => h.effect === 'failure' || h.effect === 'negative');
}

function isNegative(action: TreeAction): boolean {
  if (action.kind === 'probe') return action.outcome === 'negative';
  if (RUNTIME_KINDS.has(action.kind)) return action.outcome === 'failed';
  if (action.kind === 'pull') return action.outcome === 'failed' && action.hits.some((h) => h.decisive && h.effect === 'failure');
  if (action.kind === 'inspect') return action.hits.some((h) => h.effect === 'failure' || h.effect === 'negative');
  // A check that got an answer saying the deployment is broken (garbage output, no chat template) rejects; one that reached nothing yet does not.
  if (action.kind === 'health') return action.outcome === 'failed' && action.hits.some((h) => h.decisive && h.effect === 'failure' && brokenNotUnreached(h));
  return false;
}

/** A failure that also decides a step's own outcome (a serve, a probe), not only whether a check reached a server yet (connection refused). */
function brokenNotUnreached(hit: SignatureHit): boolean {
  return signatureNamed(hit.name)?.decides.some((kind) => kind !== 'health') ?? false;
}

/** The path a health check asked (`/v1/chat/completions` of `localhost:8080/v1/chat/completions`), '' for none. */
function endpointPath(action: TreeAction): string {
  const subject = (action.subject ?? '').replace(/^[a-z]+:\/\//i, '');
  const at = subject.indexOf('/');
  return at < 0 ? '' : subject.slice(at).replace(/[?#].*$/, '').replace(/\/+$/, '');
}

/** Whether a healthy check answers what a failed one was refused: the same endpoint, or any after a relaunch. */
function answersAfter(failure: TreeAction, check: TreeAction, actions: readonly TreeAction[]): boolean {
  if (check.seq <= failure.seq || !isHealthy(check)) return false;
  return failure.kind !== 'health' || endpointPath(check) === endpointPath(failure) || actions.some((s) => s.kind === 'serve' && s.seq > failure.seq && s.seq < check.seq);
}

/** A failure later put right by the same kind of step succeeding on the same candidate. */
function recovered(failure: TreeAction, actions: readonly TreeAction[]): boolean {
  // A failure read in a log is put right only by the service answering; a later look that shows nothing is no recovery.
  if (failure.kind === 'inspect') return actions.some((a) => a.seq > failure.seq && isHealthy(a));
  // A server that answered but refused the endpoint asked of it (the chat endpoint of a model with no chat template) is put
  // right by that endpoint answering later, or by a relaunch that then answers; not by another path answering (`/health`, a raw `/generate`).
  if (failure.kind === 'health') return actions.some((a) => answersAfter(failure, a, actions));
  return actions.some((a) => a.seq > failure.seq && (a.kind === failure.kind || (failure.kind === 'pull' && a.kind !== 'health')) && (a.outcome === 'ok' || a.outcome === 'positive'));
}

/**
 * The failure labels worth a reason: most specific first (the rules' priority), each failure before a
 * second line of one, catch-alls dropped when a precise one is there, several failed imports merged into one.
 */
function reasonLabels(hits: readonly SignatureHit[]): string[] {
  const failing = hits.filter((h) => h.effect === 'failure' || h.effect === 'negative');
  const rank = (h: SignatureHit): number => signatureNamed(h.name)?.priority ?? Number.MAX_SAFE_INTEGER;
  const generic = (h: SignatureHit): boolean => signatureNamed(h.name)?.generic ?? false;
  const sorted = [...failing].sort((a, b) => rank(a) - rank(b));
  const specific = sorted.some((h) => !generic(h));
  const precise = sorted.filter((h) => !(specific && generic(h)));
  // Each failure first, then more lines of the same ones: four spellings of one gated-repo error must leave room for the error after the login.
  const firstOf = (h: SignatureHit, i: number): boolean => precise.findIndex((o) => o.name === h.name) === i;
  const kept = [...precise.filter(firstOf), ...precise.filter((h, i) => !firstOf(h, i))];
  const labels = [...new Set(kept.map((h) => h.label))];
  const imports = labels.filter((l) => l.startsWith('import fails: ')).map((l) => l.slice('import fails: '.length));
  const merged = imports.length > 1 ? `imports fail: ${imports.join(', ')}` : null;
  const result = merged ? labels.filter((l) => !l.startsWith('import fails: ') || l === `import fails: ${imports[0] as string}`).map((l) => (l.startsWith('import fails: ') ? merged : l)) : labels;
  return result.slice(0, 3);
}

function factsOf(actions: readonly TreeAction[]): VersionFact[] {
  const seen = new Map<string, VersionFact>();
  for (const action of actions) for (const fact of action.facts) if (!seen.has(fact.component)) seen.set(fact.component, fact);
  return [...seen.values()];
}

function nextAssistant(messages: readonly TreeMessage[], ordinal: number): TreeMessage | undefined {
  return messages.find((m) => m.ordinal > ordinal && m.role === 'assistant' && (m.text.trim() || m.reasoning.trim()));
}

export function followupAfter(messages: readonly TreeMessage[], ordinal: number): { message_ordinal: number; text: string } | null {
  const next = nextAssistant(messages, ordinal);
  if (!next) return null;
  return { message_ordinal: next.ordinal, text: [next.reasoning.trim(), next.text.trim()].filter(Boolean).join('\n\n') };
}

/** Where the assistant says, in words, that it rejects this candidate (when no signature decided it). */
function statedRejection(messages: readonly TreeMessage[], names: readonly string[], after: number, before: number): { ordinal: number; sentence: string } | null {
  const cue = /\b(?:rejected|dead end|ruled out|is out|won't work|will not work|doesn't work|does not work|cannot (?:serve|run|load)|too old|not compatible|incompatible|unsupported|give up on|drop(?:ping)?)\b/i;
  for (const message of messages) {
    if (message.role !== 'assistant' || message.ordinal <= after || message.ordinal > before) continue;
    for (const sentence of sentences(`${message.reasoning}\n${message.text}`)) {
      if (mentions(sentence, names) && cue.test(sentence)) return { ordinal: message.ordinal, sentence: clip(sentence.replace(/[`*]/g, ''), 200) };
    }
  }
  return null;
}

/** Words that judge a speed too low ("far below", "falls short of 25 tok/s", "none reaches 25 tok/s"): with a rate, or "slow", in the sentence. */
const SLOW_CUE = /\b(?:too slow(?:ly)?|unusabl[ey] slow|(?:much|far|way|well|an order of magnitude) (?:slower|below)|too low|falls? short|fell short|(?:still|well|far) short|(?:none|nothing|neither) (?:of (?:them|these|the \w+) )?(?:reach(?:es)?|hits?|meets?|gets? to) |(?:doesn't|does not|don't|do not|didn't|did not|can't|cannot|never) (?:\w+ )?(?:reach|hit|meet|get to)\b)/i;
/** A summary's list of what was dropped ("Rejected: the wide draft (too slow)"): it judges what it names. */
const LISTS_REJECTED = /\b(?:rejected|dropped|discarded|ruled out)\b/i;
/** Slowness told of something not tried ("reportedly much slower"). */
const HEARSAY = /\b(?:not tried|never tried|untested|reportedly|supposedly)\b/i;
const PUT_RIGHT = /\b(?:fixed|solved|resolved|went away)\b/i;

/**
 * A sentence that judges nothing: slowness as hearsay, or told as put right — the fix comes after
 * the slowness ("too slow over Wi-Fi; the bridge fixed it"), not before it ("after I fixed the
 * port it is still too slow" is a verdict).
 */
function notAVerdict(sentence: string): boolean {
  if (HEARSAY.test(sentence)) return true;
  const slow = SLOW_CUE.exec(sentence);
  const fix = PUT_RIGHT.exec(sentence);
  return slow !== null && fix !== null && fix.index > slow.index;
}
const THROUGHPUT = /\d+(?:\.\d+)?\s*(?:tok(?:en)?s?\/s|tokens? (?:per|a) second|t\/s)\b/i;
const RATE_UNIT = String.raw`\s*(?:tok(?:en)?s?\/s(?:ec)?|tokens? (?:per|a) second|t\/s)\b`;
const RATES = new RegExp(String.raw`(\d+(?:\.\d+)?)${RATE_UNIT}`, 'gi');
/** The rate a user asks for: "at least 10 tok/s", "20+ tokens/s", "needs 15 tok/s", "a minimum of 8 t/s". */
const TARGET_RATE = new RegExp(String.raw`(?:(?:at least|minimum(?: of)?|min\.?|no less than|>=?|≥|needs?(?: to (?:do|hit|reach|get))?(?: at least)?|target(?: of|:)?)\s*~?(\d+(?:\.\d+)?)\s*\+?|(?:want|need|require|expect|get us|give us|want to see|aim for)\w*\s+(?:\w+\s+){0,3}?(\d+(?:\.\d+)?)\s*\+)${RATE_UNIT}`, 'i');

/** The rate a user's message asks for, if it names one. */
function askedRate(message: TreeMessage): number | null {
  const found = message.role === 'user' ? TARGET_RATE.exec(message.text) : null;
  return found ? Number(found[1] ?? found[2]) : null;
}

/** The lowest rate the user asked for in their messages before `before`, if they named one. */
function targetRate(messages: readonly TreeMessage[], before: number): number | null {
  const targets = messages.filter((m) => m.ordinal < before).map(askedRate).filter((r): r is number => r !== null);
  return targets.length > 0 ? Math.min(...targets) : null;
}

/**
 * Whether a sentence measures a rate below the target (a number only, no word for it: "generation runs
 * at 4.2 T/s"): every rate it gives is below, and it is no table row (a table compares several setups).
 */
function belowTarget(sentence: string, target: number | null): boolean {
  if (target === null || /^\s*\|/.test(sentence)) return false;
  const rates = [...sentence.matchAll(RATES)].map((m) => Number(m[1]));
  return rates.length > 0 && rates.every((rate) => rate < target);
}

/** Words a message must hold to judge a speed: only such messages are split into sentences. */
const MAY_JUDGE_SPEED = /slow|below|too low|tok|t\/s|per second|a second/i;

/**
 * The assistant's messages that judge what just ran too slow, in words ("still too slow") or by a
 * rate under the one the user asked for: a launch changed after one was tuned against a failure.
 */
export function slowJudgements(messages: readonly TreeMessage[]): number[] {
  const judged: number[] = [];
  // The messages come in order: the target in force is the lowest asked so far (one pass, not one scan per message).
  let target: number | null = null;
  for (const m of [...messages].sort((a, b) => a.ordinal - b.ordinal)) {
    const asked = askedRate(m);
    if (asked !== null) target = target === null ? asked : Math.min(target, asked);
    const text = `${m.text}\n${m.reasoning}`;
    if (m.role !== 'assistant' || !MAY_JUDGE_SPEED.test(text)) continue;
    const slow = sentences(text).some((s) => !notAVerdict(s) && !LISTS_REJECTED.test(s)
      && ((SLOW_CUE.test(s) && (THROUGHPUT.test(s) || /\bslow/i.test(s))) || belowTarget(s, target)));
    if (slow) judged.push(m.ordinal);
  }
  return judged;
}

/**
 * A candidate that served (or ran the model in a benchmark) but was judged too slow: the assistant's next words after its last
 * evidence say so ("far below your 20", "too slow for 16 H100s"), or they give its throughput and
 * the session then moves on to another candidate. Read in the next few assistant messages before
 * the session moves on.
 */
function tooSlow(actions: readonly TreeAction[], messages: readonly TreeMessage[], movedOnAt: number | null, names: readonly string[], others: readonly string[]): { ordinal: number; sentence: string } | null {
  // A benchmark of the model (`llama-bench`) ran it as surely as a server did: its rate is judged the same way.
  const served = actions.some((a) => (a.kind === 'serve' && a.outcome !== 'failed') || isHealthy(a) || (a.rule === 'framework-probe' && a.outcome === 'positive'));
  const last = actions.at(-1);
  if (!served || !last) return null;
  const after = messages.filter((m) => m.role === 'assistant' && m.ordinal > last.messageOrdinal && (m.text.trim() || m.reasoning.trim()) && (movedOnAt === null || m.ordinal <= movedOnAt)).slice(0, 3);
  let measured: { ordinal: number; sentence: string } | null = null;
  // A bullet of a summary that names only other candidates judges them, in every sentence it holds.
  const aboutOthers = (line: string): boolean => /^\s*(?:[-*•]|\d+[.)])\s/.test(line) && mentions(line, others) && !mentions(line, names);
  for (const message of after) {
    const lines = `${message.text}\n${message.reasoning}`.split(/\n+/).filter((line) => !aboutOthers(line));
    for (const sentence of lines.flatMap(sentences)) {
      // A summary's "Rejected: X (…too slow…)" judges X, not this candidate.
      if (notAVerdict(sentence) || ((mentions(sentence, others) || LISTS_REJECTED.test(sentence)) && !mentions(sentence, names))) continue;
      if (SLOW_CUE.test(sentence) && (THROUGHPUT.test(sentence) || /\bslow/i.test(sentence))) return { ordinal: message.ordinal, sentence: clip(sentence.replace(/[`*]/g, ''), 200) };
      // A rate under the one the user asked for is too slow, whatever words come with it.
      const target = targetRate(messages, message.ordinal);
      if (belowTarget(sentence, target)) return { ordinal: message.ordinal, sentence: `${clip(sentence.replace(/[`*]/g, ''), 200)} (below the ${target as number} tok/s asked for)` };
      if (!measured && THROUGHPUT.test(sentence)) measured = { ordinal: message.ordinal, sentence: clip(sentence.replace(/[`*]/g, ''), 200) };
    }
  }
  return movedOnAt !== null ? measured : null;
}

/** `names`: what the assistant calls this candidate; `others`: what it calls the other tried candidates. */
export function judge(candidate: TriedCandidate, names: readonly string[], messages: readonly TreeMessage[], movedOnAt: number | null, others: readonly string[] = []): Judged {
  const actions = candidate.actions;
  const healthy = actions.filter(isHealthy);
  const negatives = actions.filter((a) => isNegative(a) && !recovered(a, actions));
  const lastHealthy = healthy.at(-1);
  const lastNegative = negatives.at(-1);
  const decisiveCalls = new Set<string>();
  let verdict: Verdict;
  let reason: string;
  let followup: Judged['followup'] = null;
  const facts = factsOf(actions);
  // Whether it served too slowly: read once, and only for a verdict no failure decided.
  let slowRead: ReturnType<typeof tooSlow> | undefined;
  const slowness = (): ReturnType<typeof tooSlow> => (slowRead === undefined ? (slowRead = tooSlow(actions, messages, movedOnAt, names, others)) : slowRead);
  if (lastHealthy && (!lastNegative || healthy.some((a) => answersAfter(lastNegative, a, actions)))) {
    verdict = 'accepted';
    for (const action of healthy) decisiveCalls.add(action.callId);
    // An OpenAI-compatible server answers a model list or a completion only with HTTP 200: say so when no status code was printed.
    const read = [...new Set(healthy.map((a) => a.reading ?? a.hits.find((h) => h.effect === 'ready')?.line.trim() ?? null).filter((r): r is string => r !== null))];
    const statusShown = read.some((r) => /^health \d{3}$/.test(r));
    const readings = read.map((r) => (!statusShown && /^(?:model listed|completion answered)\b/.test(r) ? `HTTP 200, ${r}` : r));
    reason = [describeFacts(facts, reasonComponents(false)), readings.join(', ')].filter(Boolean).join('; ');
  } else if (lastNegative) {
    verdict = 'rejected';
    const deciding = negatives;
    for (const action of deciding) decisiveCalls.add(action.callId);
    const labels = reasonLabels(deciding.flatMap((a) => a.hits));
    const kernel = labels.some((l) => /kernel|sm_\d|CUDA/.test(l));
    const versionLine = describeFacts(facts, reasonComponents(kernel));
    followup = followupAfter(messages, lastNegative.messageOrdinal);
    const next = nextAssistant(messages, lastNegative.messageOrdinal);
    const judgement = next ? judgementClause([next.text, next.reasoning]) : null;
    const said = (judgement ?? '').toLowerCase();
    const shown = labels.filter((label) => !said.includes(label.toLowerCase()));
    const evidencePart = [versionLine, shown.join('; ') || (lastNegative.outcome === 'failed' ? `${lastNegative.kind} failed` : `${lastNegative.kind} ${lastNegative.outcome}`)].filter(Boolean).join('; ');
    reason = judgement ? `${evidencePart} — ${judgement}` : evidencePart;
  } else {
    const last = actions.at(-1);
    const stated = last ? statedRejection(messages, names, last.messageOrdinal - 1, movedOnAt ?? Number.MAX_SAFE_INTEGER) : null;
    // Nothing ever answered, and a precise failure showed in its output (an OOM in a backgrounded launch's log): that failure decides.
    const failing = healthy.length === 0 ? actions.filter((a) => a.hits.some((h) => h.effect === 'failure' && !(signatureNamed(h.name)?.generic ?? false))) : [];
    const shownLabels = reasonLabels(failing.flatMap((a) => a.hits));
    if (failing.length > 0 && shownLabels.length > 0) {
      verdict = 'rejected';
      for (const action of failing) decisiveCalls.add(action.callId);
      const lastFailing = failing.at(-1) as TreeAction;
      followup = followupAfter(messages, lastFailing.messageOrdinal);
      const next = nextAssistant(messages, lastFailing.messageOrdinal);
      const judgement = next ? judgementClause([next.text, next.reasoning]) : null;
      reason = judgement ? `${shownLabels.join('; ')} — ${judgement}` : shownLabels.join('; ');
    } else if (stated && !slowness()) {
      // A rate measured too low decides before words that may only weigh dropping it ("try MAXN before dropping Ollama").
      verdict = 'rejected';
      reason = stated.sentence;
      followup = followupAfter(messages, stated.ordinal - 1);
    } else {
      verdict = movedOnAt !== null ? 'abandoned' : 'unknown';
      const summary = [...new Set(actions.filter((a) => a.kind !== 'inspect').map((a) => `${a.kind} ${a.outcome}`))].join(', ');
      reason = verdict === 'abandoned'
        ? `tried (${summary || 'no conclusive step'}), never concluded before the session moved on`
        : `tried (${summary || 'no conclusive step'}); the transcript shows no conclusion`;
    }
  }
  const slow = verdict !== 'rejected' ? slowness() : null;
  if (slow) {
    verdict = 'rejected';
    reason = `too slow — ${slow.sentence}`;
    followup = followupAfter(messages, slow.ordinal - 1);
  }
  const evidence: EvidenceRef[] = [];
  for (const action of actions) {
    if (evidence.some((e) => e.call_id === action.callId)) continue;
    evidence.push({ message_ordinal: action.messageOrdinal, call_id: action.callId, kind: action.kind, outcome: action.outcome, decisive: decisiveCalls.has(action.callId) });
  }
  return { verdict, reason: clip(reason, 400), evidence, followup };
}
