import { frameworkById, imageRepository, parseImageRef } from '../classify/index.js';
import { findGoal } from './goal.js';
import { extractLeads, type Lead } from './leads.js';
import { findPivots, type NamedTried } from './pivots.js';
import { clip } from './text.js';
import { collectTried } from './tried.js';
import type { CandidateNode, DecisionTree, TreeInput } from './types.js';
import { judge } from './verdicts.js';

/**
 * The decision tree of one session: its goal, the candidates it tried (with verdicts, reasons and
 * evidence), the leads it named and never tried, and the pivots between them. Pure: data in, data out.
 */

/**
 * The names the assistant may use for a candidate: its name, its repository, a tag with a version
 * in it (`25.11-py3`, `25.11`), an approach's flags (`--tp 16`), its framework's label.
 */
function named(candidate: ReturnType<typeof collectTried>[number]): NamedTried {
  const ref = candidate.kind === 'approach' ? null : parseImageRef(candidate.name);
  const repository = ref ? imageRepository(ref) : null;
  const label = frameworkById(candidate.framework)?.label;
  const tags = ref?.tag && /\d/.test(ref.tag) ? [ref.tag, ref.tag.split('-')[0] as string].filter((t) => /\d/.test(t)) : [];
  const config = candidate.kind === 'approach' ? candidate.actions.find((a) => a.config)?.config ?? null : null;
  const flags = config ? [config, /^--[\w-]+ \S+/.exec(config)?.[0] ?? config] : [];
  const aliases = [candidate.name, ...(repository && repository !== candidate.name ? [repository] : []), ...tags, ...flags, ...(label ? [label] : [])];
  return { ...candidate, aliases: [...new Set(aliases)], repository };
}

/** Whether a lead is one of the tried candidates under another spelling. */
function leadIsTried(lead: Lead, tried: readonly NamedTried[]): boolean {
  return tried.some((candidate) => {
    if (candidate.kind === 'approach') return false;
    const name = candidate.name.toLowerCase();
    if (name === lead.name.toLowerCase()) return true;
    if (lead.repository && candidate.repository === lead.repository && !lead.tagged) return true;
    if (lead.descriptive) {
      // "the official vLLM image" is a tried vLLM image; "an NGC vLLM nightly" only one from nvcr.io with "nightly" in it.
      return candidate.framework === lead.framework && lead.descriptive.every((word) => name.includes(word.toLowerCase()));
    }
    return false;
  });
}

function untestedReason(lead: Lead): string {
  const ordinals = lead.mentions.map((m) => `#${m.ordinal}`).join(', ');
  const remark = [...lead.mentions].reverse().find((m) => m.remark)?.remark;
  return clip(`named as a lead at ${ordinals}, never tried${remark ? ` — ${remark}` : ''}`, 300);
}

export function buildTree(input: TreeInput): DecisionTree {
  const goal = findGoal(input.messages);
  const tried = collectTried(input.actions).map(named);
  const lastOrdinalOf = (candidate: NamedTried): number => Math.max(...candidate.actions.map((a) => a.messageOrdinal));
  const firstSeqOf = (candidate: NamedTried): number => Math.min(...candidate.actions.map((a) => a.seq));
  const candidates: CandidateNode[] = [];
  const ordered = [...tried].sort((a, b) => firstSeqOf(a) - firstSeqOf(b) || (a.kind === 'approach' ? 1 : 0) - (b.kind === 'approach' ? 1 : 0));
  for (const candidate of ordered) {
    const peers = tried.filter((c) => (c.kind === 'approach') === (candidate.kind === 'approach') && (candidate.kind !== 'approach' || c.parentKey === candidate.parentKey));
    const later = peers.filter((c) => c !== candidate && firstSeqOf(c) > Math.max(...candidate.actions.map((a) => a.seq)));
    const movedOnAt = later.length > 0 ? Math.min(...later.map((c) => Math.min(...c.actions.map((a) => a.messageOrdinal)))) : null;
    const judged = judge(candidate, candidate.aliases.filter((a) => a !== frameworkById(candidate.framework)?.label), input.messages, movedOnAt);
    candidates.push({
      name: candidate.name,
      kind: candidate.kind,
      framework: candidate.framework,
      parent: candidate.parentKey ? (tried.find((c) => c.key === candidate.parentKey)?.name ?? null) : null,
      verdict: judged.verdict,
      reason: judged.reason,
      evidence: judged.evidence,
      mentions: [],
      first_ordinal: Math.min(...candidate.actions.map((a) => a.messageOrdinal)),
      last_ordinal: lastOrdinalOf(candidate),
      followup: judged.followup,
    });
  }
  if (!input.isSubagent) {
    const modelIds = new Set(input.actions.map((a) => a.model).filter((m): m is string => Boolean(m)));
    const texts = [
      ...input.messages.filter((m) => m.role === 'assistant').map((m) => ({ ordinal: m.ordinal, text: `${m.reasoning}\n${m.text}` })),
      ...input.delegated.map((d) => ({ ordinal: d.ordinal, text: d.text })),
    ].sort((a, b) => a.ordinal - b.ordinal);
    for (const lead of extractLeads(texts, modelIds)) {
      if (leadIsTried(lead, tried)) continue;
      candidates.push({
        name: lead.name,
        kind: lead.kind,
        framework: lead.framework,
        parent: null,
        verdict: 'untested',
        reason: untestedReason(lead),
        evidence: [],
        mentions: lead.mentions.map((m) => m.ordinal),
        first_ordinal: lead.mentions[0]?.ordinal ?? null,
        last_ordinal: lead.mentions.at(-1)?.ordinal ?? null,
        followup: null,
      });
    }
  }
  return {
    session: input.sessionId,
    goal: goal?.text ?? null,
    goal_ordinal: goal?.ordinal ?? null,
    candidates,
    pivots: findPivots(tried, input.messages),
  };
}
