import { frameworkById } from '../classify/index.js';
import { clip, mentions, NEGATIVE_CUE, sentences } from './text.js';
import type { TriedCandidate } from './tried.js';
import type { PivotEdge, PivotScope, TreeMessage } from './types.js';

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
}

/** The sequence of candidates in the order the actions visited them, runs collapsed. */
function visits(candidates: readonly NamedTried[]): Step[] {
  const events = candidates.flatMap((candidate) => candidate.actions.map((action) => ({ candidate, action })));
  events.sort((a, b) => a.action.seq - b.action.seq);
  const steps: Step[] = [];
  for (const { candidate, action } of events) {
    const last = steps.at(-1);
    if (last && last.candidate === candidate) {
      last.lastOrdinal = Math.max(last.lastOrdinal, action.messageOrdinal);
      continue;
    }
    steps.push({ candidate, firstOrdinal: action.messageOrdinal, lastOrdinal: action.messageOrdinal });
  }
  return steps;
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

function chainPivots(steps: readonly Step[], messages: readonly TreeMessage[]): PivotEdge[] {
  const pivots: PivotEdge[] = [];
  for (let i = 1; i < steps.length; i++) {
    const from = steps[i - 1] as Step;
    const to = steps[i] as Step;
    const message = turnMessage(messages, from.lastOrdinal, to.firstOrdinal, to.candidate, from.candidate);
    pivots.push({
      from: from.candidate.name,
      to: to.candidate.name,
      message_ordinal: message?.ordinal ?? to.firstOrdinal,
      reason: message ? pivotReason(message, to.candidate, from.candidate) : '',
      scope: scopeOf(from.candidate, to.candidate),
    });
  }
  return pivots;
}

export function findPivots(candidates: readonly NamedTried[], messages: readonly TreeMessage[]): PivotEdge[] {
  const topLevel = candidates.filter((c) => c.kind !== 'approach');
  const pivots = chainPivots(visits(topLevel), messages);
  const parents = new Set(candidates.filter((c) => c.kind === 'approach').map((c) => c.parentKey));
  for (const parent of parents) {
    const approaches = candidates.filter((c) => c.kind === 'approach' && c.parentKey === parent);
    const serveOnly = approaches.map((a) => ({ ...a, actions: a.actions.filter((x) => x.kind === 'serve') }));
    pivots.push(...chainPivots(visits(serveOnly), messages));
  }
  return pivots.sort((a, b) => a.message_ordinal - b.message_ordinal);
}
