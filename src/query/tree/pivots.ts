import { frameworkById } from '../classify/index.js';
import { clip, mentions, NEGATIVE_CUE, sentences } from './text.js';
import type { TriedCandidate } from './tried.js';
import type { PivotEdge, PivotScope, TreeAction, TreeMessage } from './types.js';

/**
 * Pivots: where the path turned from one candidate to the next. The order is the order in which
 * the session's actions moved between candidates; the turn is placed at the first assistant
 * message after the last evidence on the old candidate that names the new one (falling back to
 * the message of its first action), and its reason is what that message says about the move.
 */
export interface NamedTried extends TriedCandidate {
  /** Names the assistant may use for it: the name, the repository, the framework's label. */
  aliases: string[];
  repository: string | null;
}

interface Step {
  candidate: NamedTried;
  firstOrdinal: number;
  lastOrdinal: number;
  firstSeq: number;
  lastSeq: number;
}

/**
 * The sequence of candidates in the order the actions visited them, runs collapsed. Each action
 * belongs to its most specific candidate: the approach that holds it, else its top-level candidate.
 */
function visits(candidates: readonly NamedTried[]): Step[] {
  const owner = new Map<TreeAction, NamedTried>();
  for (const candidate of candidates.filter((c) => c.kind !== 'approach')) for (const action of candidate.actions) owner.set(action, candidate);
  for (const approach of candidates.filter((c) => c.kind === 'approach')) {
    for (const action of approach.actions) if (owner.get(action)?.key === approach.parentKey || !owner.has(action)) owner.set(action, approach);
  }
  const events = [...owner.entries()].map(([action, candidate]) => ({ action, candidate })).sort((a, b) => a.action.seq - b.action.seq);
  const steps: Step[] = [];
  for (const { candidate, action } of events) {
    const last = steps.at(-1);
    if (last && last.candidate === candidate) {
      last.lastOrdinal = Math.max(last.lastOrdinal, action.messageOrdinal);
      last.lastSeq = action.seq;
      continue;
    }
    steps.push({ candidate, firstOrdinal: action.messageOrdinal, lastOrdinal: action.messageOrdinal, firstSeq: action.seq, lastSeq: action.seq });
  }
  return steps;
}

/** Whether a candidate's own launch was judged before `seq` (served a model, failed, or answered): leaving it for an approach is then a turn. */
function judgedBefore(candidate: NamedTried, seq: number): boolean {
  return candidate.actions.some((a) => a.seq < seq && (
    (a.kind === 'serve' && a.model !== null)
    || (a.kind === 'health' && a.outcome === 'ok')
    || (/^(?:serve|start|probe|inspect)$/.test(a.kind) && (a.outcome === 'failed' || a.outcome === 'negative' || a.hits.some((h) => h.effect === 'failure' || h.effect === 'negative')))));
}

function scopeOf(from: NamedTried, to: NamedTried): PivotScope {
  if (to.kind === 'approach' && from.kind === 'approach') return 'approach';
  if (from.framework && to.framework && from.framework !== to.framework) return 'framework';
  if (from.repository && from.repository === to.repository) return 'version';
  return 'image';
}

/**
 * What the turn message says about it: the first sentence naming the new candidate (or, when the
 * framework changes, its framework), reaching forward to the sentence naming the candidate itself
 * when that follows closely, and led by the sentence before when that one says why the old one is out.
 */
export function pivotReason(message: TreeMessage, to: NamedTried, from: NamedTried): string {
  const label = frameworkById(to.framework)?.label;
  const byName = to.aliases.filter((a) => a !== label);
  const byFramework = to.framework !== from.framework && label ? [label] : [];
  for (const body of [message.reasoning, message.text]) {
    const found = reasonIn(sentences(body), byName, byFramework, from);
    if (found) return found;
  }
  const anyNegative = sentences(`${message.reasoning}\n${message.text}`).find((s) => NEGATIVE_CUE.test(s));
  return clip((anyNegative ?? sentences(message.text)[0] ?? '').replace(/[`*]/g, ''), 320);
}

function reasonIn(list: readonly string[], byName: readonly string[], byFramework: readonly string[], from: NamedTried): string | null {
  const nameAt = list.findIndex((s) => mentions(s, byName));
  const frameworkAt = byFramework.length > 0 ? list.findIndex((s) => mentions(s, byFramework)) : -1;
  let start: number;
  let end: number;
  if (nameAt !== -1 && (frameworkAt === -1 || frameworkAt > nameAt || nameAt - frameworkAt <= 2)) {
    start = frameworkAt !== -1 && frameworkAt <= nameAt ? frameworkAt : nameAt;
    end = nameAt;
  } else if (frameworkAt !== -1) {
    start = frameworkAt;
    end = frameworkAt;
  } else {
    return null;
  }
  const previous = start > 0 && start === end ? (list[start - 1] as string) : null;
  const lead = previous && (NEGATIVE_CUE.test(previous) || mentions(previous, from.aliases)) ? [previous] : [];
  return clip([...lead, ...list.slice(start, end + 1)].join(' ').replace(/[`*]/g, ''), 320);
}

function turnMessage(messages: readonly TreeMessage[], after: number, upTo: number, to: NamedTried, from: NamedTried): TreeMessage | undefined {
  const window = messages.filter((m) => m.role === 'assistant' && m.ordinal > after && m.ordinal <= upTo);
  const byName = window.find((m) => mentions(`${m.reasoning}\n${m.text}`, to.aliases.filter((a) => a !== frameworkById(to.framework)?.label)));
  const frameworkLabel = to.framework !== from.framework ? frameworkById(to.framework)?.label : undefined;
  const byFramework = frameworkLabel ? window.find((m) => mentions(`${m.reasoning}\n${m.text}`, [frameworkLabel])) : undefined;
  if (byName && byFramework) return byName.ordinal <= byFramework.ordinal ? byName : byFramework;
  return byName ?? byFramework ?? window.find((m) => m.ordinal === upTo);
}

/**
 * Pivots along the visits. Coming back to a candidate's own steps from one of its approaches is no
 * turn (the approach is still what is being tried); going from a candidate to its approach is one
 * only when the candidate's own launch had been judged first.
 */
export function findPivots(candidates: readonly NamedTried[], messages: readonly TreeMessage[]): PivotEdge[] {
  const pivots: PivotEdge[] = [];
  let current: Step | null = null;
  for (const step of visits(candidates)) {
    if (!current) {
      current = step;
      continue;
    }
    const from: NamedTried = current.candidate;
    const to = step.candidate;
    if (to === from || from.parentKey === to.key) {
      if (to === from) current = { ...current, lastOrdinal: step.lastOrdinal, lastSeq: step.lastSeq };
      continue;
    }
    if (to.parentKey === from.key && !judgedBefore(from, step.firstSeq)) {
      current = step;
      continue;
    }
    const message = turnMessage(messages, current.lastOrdinal, step.firstOrdinal, to, from);
    pivots.push({
      from: from.name,
      to: to.name,
      message_ordinal: message?.ordinal ?? step.firstOrdinal,
      reason: message ? pivotReason(message, to, from) : '',
      scope: to.parentKey === from.key ? 'approach' : scopeOf(from, to),
    });
    current = step;
  }
  return pivots.sort((a, b) => a.message_ordinal - b.message_ordinal);
}
