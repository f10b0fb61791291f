import { frameworkById, imageRepository, packageName, parseImageRef } from '../classify/index.js';
import { shapeKey } from '../classify/shape.js';
import { asksForDeployment, findGoal } from './goal.js';
import { modelStem, namesWeightsFormat, sameWeightsShorter } from './approach-names.js';
import { extractLeads, type Lead } from './leads.js';
import { findPivots, type NamedTried } from './pivots.js';
import { clip } from './text.js';
import { collectTried, type TriedCandidate } from './tried.js';
import type { CandidateNode, DecisionTree, TreeInput } from './types.js';
import { judge, slowJudgements } from './verdicts.js';
import { looseName } from '../classify/names.js';

/**
 * The decision tree of one session: its goal, the candidates it tried (with verdicts, reasons and
 * evidence), the leads it named and never tried, and the pivots between them. A session that
 * neither asks for a deployment nor tries one (an ordinary coding session) has no candidates.
 * Pure: data in, data out.
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
  const options = candidate.kind === 'approach' ? candidate.actions.find((a) => a.options)?.options ?? null : null;
  // An approach named by several options is also called by the first of them (`--speculative-num-steps 6`).
  const flags = [config, options, candidate.kind === 'approach' ? candidate.name : null].flatMap((text) => (text ? [text, /^--?[\w-]+(?:[ =]\S+)?/.exec(text)?.[0] ?? text] : []));
  const aliases = [candidate.name, ...(repository && repository !== candidate.name ? [repository] : []), ...tags, ...flags, ...(label ? [label] : [])];
  return { ...candidate, aliases: [...new Set(aliases)], repository };
}

/** A version a candidate's name carries (`vllm==0.5.1`, `vLLM 0.5.1`, `sglang[all]==0.4.6`). */
function versionIn(name: string): string | null {
  return /(?:==|\s|:)v?(\d+\.\d+(?:\.\d+)?(?:\.post\d+|rc\d+)?)\b/.exec(name)?.[1] ?? null;
}

/** One release said shorter or longer: `0.17` is `0.17.0`. */
function sameRelease(a: string | null, b: string): boolean {
  return a !== null && (a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`));
}

/** Whether an option the assistant proposed was in fact run: it is in a command of a tried candidate. */
function optionWasRun(lead: Lead, tried: readonly NamedTried[]): boolean {
  if (lead.kind !== 'approach' || !/^(?:--|[A-Z][A-Z0-9_]*=)/.test(lead.name)) return false;
  // As a config file spells it too (`tensor_parallel_size: 2` in model.json for `--tensor_parallel_size 2`).
  const spellings = [lead.name, lead.name.replace(' ', '='), lead.name.replace(' ', ': '), lead.name.replace(/^--/, '').replace(' ', ': ')];
  return tried.some((c) => c.actions.some((a) => spellings.some((s) => a.command.includes(s) || (a.config ?? '').includes(s))));
}

/** A launch spread over several nodes: a node count or a pipeline over nodes in its layout. */
function spansNodes(action: NamedTried['actions'][number]): boolean {
  return /(?:^|\s)--(?:nnodes|pp)\s+(?:[2-9]|\d{2,})\b/.test(shapeKey(action.config, frameworkById(action.framework)));
}

/**
 * "One node" was tried when the session, having launched across nodes, launched on one node later: after naming it as the
 * way out, or before a summary names it.
 */
function oneNodeTried(lead: Lead, tried: readonly NamedTried[]): boolean {
  if (lead.kind !== 'approach' || lead.name !== 'single node') return false;
  const launches = tried.flatMap((c) => c.actions).filter((a) => a.kind === 'serve');
  const firstAcross = launches.filter((a) => spansNodes(a)).map((a) => a.seq);
  return firstAcross.length > 0 && launches.some((a) => !spansNodes(a) && a.seq > Math.min(...firstAcross));
}

/** A checkpoint proposed and then served was tried, whatever its approach is called (`--tensor-parallel-size 2` with the AWQ weights). */
function checkpointServed(lead: Lead, tried: readonly NamedTried[]): boolean {
  if (lead.kind !== 'approach' || !/[/-]/.test(lead.name) || /^-|=/.test(lead.name)) return false;
  const wanted = modelStem(lead.name);
  return tried.some((c) => c.actions.some((a) => (a.kind === 'serve' || a.rule === 'framework-probe') && a.model !== null && modelStem(a.model) === wanted));
}

/** A lead that is a model named with its size (`Qwen2.5-32B-Instruct`), not an option. */
function sizedModelLead(lead: Lead): boolean {
  return lead.kind === 'approach' && /-\d+(?:\.\d+)?[BM]\b/i.test(lead.name) && !/^-|=/.test(lead.name);
}

/**
 * A model proposed that is the one the session ran or fetched, shorter or longer spelled (`Llama-3.1-70B` for the
 * `meta-llama/Llama-3.1-70B-Instruct` it served and failed on): no other way to run it.
 */
function modelItRan(lead: Lead, actions: TreeInput['actions']): boolean {
  if (!sizedModelLead(lead)) return false;
  const wanted = modelStem(lead.name);
  const plain = !namesWeightsFormat(wanted);
  return actions.some((a) => [a.model, a.kind === 'download' ? a.subject : null].some((m) => {
    const have = m ? modelStem(m) : null;
    // A name with no format of its own (`Qwen2.5-14B`) is that model in whatever quantization was run (`…-q4f16_1-MLC`).
    return have !== null && ((plain && have.startsWith(wanted)) || sameWeightsShorter(wanted, have) || sameWeightsShorter(have, wanted));
  }));
}

/** Whether a lead is one of the tried candidates under another spelling. */
function leadIsTried(lead: Lead, tried: readonly NamedTried[], checkouts: ReadonlySet<string>): boolean {
  if (optionWasRun(lead, tried) || oneNodeTried(lead, tried) || checkpointServed(lead, tried)) return true;
  // Building a framework from source is tried once its source was checked out.
  if (lead.kind === 'framework' && lead.framework && checkouts.has(lead.framework) && /\bsource\b/i.test(lead.name)) return true;
  return tried.some((candidate) => {
    const name = candidate.name.toLowerCase();
    if (name === lead.name.toLowerCase()) return true;
    // An unlisted stack proposed by name ("try fastllm-serve") is the tried package or image of that name (`fastllm-serve==1.4.0`).
    if (lead.framework === null && lead.kind === 'framework' && candidate.framework === null && candidate.kind !== 'approach') {
      const base = candidate.kind === 'image' ? (candidate.repository ?? name).split('/').at(-1) ?? name : packageName(candidate.name);
      if (looseName(base) === looseName(lead.name)) return true;
    }
    // `spark-builds/x:1.0` names the tried `ghcr.io/spark-builds/x:1.0` without its registry.
    if (lead.kind === 'image' && candidate.kind === 'image' && lead.tagged && name.endsWith(`/${lead.name.toLowerCase()}`)) return true;
    if (candidate.kind === 'approach') {
      const framework = frameworkById(candidate.framework);
      const config = candidate.actions.find((a) => a.config)?.config ?? null;
      return lead.kind === 'approach' && config !== null && shapeKey(lead.name, framework) === shapeKey(config, framework);
    }
    if (lead.version) return candidate.framework === lead.framework && sameRelease(versionIn(candidate.name), lead.version);
    if (lead.generic) return candidate.framework === lead.framework;
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

function sessionLeads(input: TreeInput, tried: readonly NamedTried[], goalOrdinal: number | null): Lead[] {
  // Models the session itself pulled, downloaded or served are what it deploys, not leads of something else to try.
  // So are model tags it typed into a command (`docker exec ollama ollama pull llama3.2:3b`, a request's `"model":"…"`).
  const typedTags = input.actions.flatMap((a) => [...a.command.matchAll(/(?<![\w./:-])([a-z][\w.-]*:[\w.-]*[a-z0-9])(?![\w/:])/gi)].map((m) => m[1] as string));
  const modelIds = new Set([...input.actions.flatMap((a) => [a.model, a.kind === 'download' ? a.subject : null]).filter((m): m is string => Boolean(m)), ...typedTags]);
  const triedImages = tried.flatMap((c) => {
    const ref = c.kind === 'image' ? parseImageRef(c.name) : null;
    return ref?.tag ? [{ repository: imageRepository(ref), tag: ref.tag, framework: c.framework }] : [];
  });
  const texts = [
    ...input.messages.filter((m) => m.role === 'assistant').map((m) => ({ ordinal: m.ordinal, text: `${m.reasoning}\n${m.text}` })),
    ...input.messages.filter((m) => m.role === 'user').map((m) => ({ ordinal: m.ordinal, text: m.text, user: true, request: m.ordinal === goalOrdinal })),
    ...input.delegated.map((d) => ({ ordinal: d.ordinal, text: d.text })),
  ].sort((a, b) => a.ordinal - b.ordinal);
  const triedFrameworks = new Set(tried.map((c) => c.framework).filter((f): f is string => f !== null));
  return extractLeads(texts, { modelIds, triedImages, framework: tried.at(-1)?.framework ?? null, triedFrameworks });
}

/** A variable that only switches a feature on (`X=1`) next to one of the same framework set to a value is part of that setting's lead. */
function enablerOfAnother(lead: Lead, leads: readonly Lead[]): boolean {
  if (lead.kind !== 'approach' || !/^[A-Z][A-Z0-9_]*=(?:1|true|on|yes)$/i.test(lead.name)) return false;
  const ordinals = new Set(lead.mentions.map((m) => m.ordinal));
  return leads.some((other) => other !== lead && other.kind === 'approach' && other.framework === lead.framework
    && /^[A-Z][A-Z0-9_]*=/.test(other.name) && !/=(?:1|true|on|yes|0|false|off|no)$/i.test(other.name) && other.mentions.some((m) => ordinals.has(m.ordinal)));
}

/**
 * A model proposed by its size that is no other way to run anything: the model the request asks for (`Llama-3.3-70B`
 * for "serve Llama-3.3-70B-Instruct"), or one an image or candidate of the session already carries in its name
 * (`Llama-3.1-8B` beside `nvcr.io/nim/meta/llama-3.1-8b-instruct:1.13.1`).
 */
function modelSaidOtherwise(lead: Lead, goal: string | null, names: readonly string[]): boolean {
  if (!sizedModelLead(lead)) return false;
  const wanted = modelStem(lead.name);
  const asked = (goal ?? '').split(/[\s,;()`'"]+/).some((word) => word.length > 4 && sameWeightsShorter(wanted, modelStem(word)));
  return asked || names.some((name) => name.toLowerCase() !== lead.name.toLowerCase() && name.toLowerCase().includes(wanted));
}

function untestedLeads(input: TreeInput, tried: readonly NamedTried[], all: readonly Lead[], goal: string | null): Lead[] {
  const checkouts = new Set(input.actions.filter((a) => a.rule === 'source-build' && a.framework).map((a) => a.framework as string));
  const named = [...all.map((l) => l.name), ...tried.map((c) => c.name)];
  const leads = all.filter((lead) => !leadIsTried(lead, tried, checkouts) && !modelItRan(lead, input.actions) && !modelSaidOtherwise(lead, goal, named) && !enablerOfAnother(lead, all));
  // A description ("the NGC SGLang container") of an image also named by reference is that image.
  const described = (lead: Lead): boolean => lead.descriptive !== null && lead.descriptive.length > 0 && leads.some((other) => other !== lead
    && other.repository !== null && other.framework === lead.framework && (lead.descriptive ?? []).every((word) => other.name.toLowerCase().includes(word.toLowerCase())));
  // A bare framework name says less than an image, a version or a build of it named in the same session, and says it once.
  // "trtllm-serve's PyTorch backend" beside `--backend pytorch` in the same message is that option.
  const optionOfBackend = (lead: Lead): boolean => lead.kind === 'framework' && (lead.descriptive?.length ?? 0) === 1 && leads.some((other) => other !== lead && other.kind === 'approach'
    && other.name.toLowerCase().endsWith(` ${(lead.descriptive as string[])[0]?.toLowerCase() ?? ''}`) && other.mentions.some((m) => lead.mentions.some((n) => n.ordinal === m.ordinal)));
  // "vLLM 0.8.5" beside `vllm/vllm-openai:v0.8.5` in the same session is that image, said by its version.
  const versionOfImage = (lead: Lead): boolean => lead.kind === 'framework' && Boolean(lead.version) && leads.some((other) => other !== lead
    && other.kind === 'image' && other.framework === lead.framework && sameRelease(versionIn(other.name), lead.version as string));
  return leads.filter((lead) => !described(lead) && !optionOfBackend(lead) && !versionOfImage(lead)).filter((lead, index, kept) => !lead.generic || (
    !kept.some((other) => other !== lead && !other.generic && other.framework === lead.framework)
    && !kept.slice(0, index).some((other) => other.generic && other.framework === lead.framework)));
}

/**
 * A candidate run in several approaches is what its last approach made of it: when the last one
 * served (after earlier ones failed or were compared and dropped), the image or package it ran on
 * served too, whatever an earlier approach's failure or a summary's words said of it. `tried` is
 * in the order of `nodes`.
 */
function creditLastApproach(tried: readonly NamedTried[], nodes: CandidateNode[]): void {
  const lastSeq = (c: NamedTried): number => Math.max(...c.actions.map((a) => a.seq));
  tried.forEach((parent, index) => {
    const children = tried.map((c, i) => ({ c, i })).filter(({ c }) => c.parentKey === parent.key);
    const last = children.sort((a, b) => lastSeq(a.c) - lastSeq(b.c)).at(-1);
    const node = nodes[index];
    const lastNode = last ? nodes[last.i] : undefined;
    if (!node || !lastNode || lastNode.verdict !== 'accepted' || node.verdict === 'accepted') return;
    node.verdict = 'accepted';
    node.reason = lastNode.reason;
    node.followup = lastNode.followup;
  });
}

/**
 * A candidate every one of whose approaches was rejected failed in each of them: its reason tells
 * each way and what stopped it, in order (the NCCL timeout across nodes, then too slow on one), not
 * only what stopped the last. `tried` is in the order of `nodes`.
 */
function everyWayFailed(tried: readonly NamedTried[], nodes: CandidateNode[]): void {
  tried.forEach((parent, index) => {
    const node = nodes[index];
    const children = nodes.filter((_, i) => tried[i]?.parentKey === parent.key);
    if (!node || node.verdict !== 'rejected' || children.length < 2 || children.some((c) => c.verdict !== 'rejected')) return;
    const share = Math.floor(380 / children.length);
    node.reason = clip(`every way failed: ${children.map((c) => `${c.name}: ${clip(c.reason, share - c.name.length)}`).join('; ')}`, 400);
  });
}

/** A candidate that serves no model itself: a sidecar of the rules' `service` kind, a candidate only because the user asked for it. */
function isSidecar(candidate: TriedCandidate): boolean {
  return frameworkById(candidate.framework)?.kind === 'service';
}

export function buildTree(input: TreeInput): DecisionTree {
  const goal = findGoal(input.messages);
  const prose = input.messages.filter((m) => m.role === 'assistant').map((m) => `${m.reasoning}\n${m.text}`).join('\n');
  const asks = input.messages.filter((m) => m.role === 'user').map((m) => ({ ordinal: m.ordinal, text: m.text }));
  const tried = collectTried(input.actions, prose, slowJudgements(input.messages), asks).map(named);
  const lastOrdinalOf = (candidate: NamedTried): number => Math.max(...candidate.actions.map((a) => a.messageOrdinal));
  const firstSeqOf = (candidate: NamedTried): number => Math.min(...candidate.actions.map((a) => a.seq));
  const candidates: CandidateNode[] = [];
  const ordered = [...tried].sort((a, b) => firstSeqOf(a) - firstSeqOf(b) || (a.kind === 'approach' ? 1 : 0) - (b.kind === 'approach' ? 1 : 0));
  for (const candidate of ordered) {
    // Moving on: another candidate (a sibling approach, or another top-level candidate) started after this one's last step.
    const related = (c: NamedTried): boolean => c === candidate || c.key === candidate.parentKey || c.parentKey === candidate.key;
    // A sidecar the user asked for (a gateway, a chat UI: requested-service.ts) started after the server is no move away from it, nor the reverse.
    const peers = tried.filter((c) => !related(c) && isSidecar(c) === isSidecar(candidate) && (c.kind !== 'approach' || c.parentKey === candidate.parentKey || candidate.kind !== 'approach'));
    const later = peers.filter((c) => firstSeqOf(c) > Math.max(...candidate.actions.map((a) => a.seq)));
    const movedOnAt = later.length > 0 ? Math.min(...later.map((c) => Math.min(...c.actions.map((a) => a.messageOrdinal)))) : null;
    // A framework's label names this candidate only when no other candidate is of that framework ("MLC LLM" beside Ollama).
    const label = frameworkById(candidate.framework)?.label;
    const unrelated = tried.filter((c) => !related(c));
    const labelIsOwn = !unrelated.some((c) => c.framework === candidate.framework);
    const own = candidate.aliases.filter((a) => a !== label || labelIsOwn);
    // What the other candidates are called (not a name this one shares, nor the label of a framework it shares with one of
    // them): a sentence naming only them judges them. "Ollama: 21.7 tok/s" beside an MLC image judges Ollama.
    const others = [...new Set(unrelated.flatMap((c) => c.aliases))].filter((a) => a !== label && !own.includes(a));
    const judged = judge(candidate, own, input.messages, movedOnAt, others);
    candidates.push({
      name: candidate.name,
      kind: candidate.kind,
      // A tried candidate of no known framework is a serving stack no rule file names (unknown-stack.ts).
      framework: candidate.framework ?? 'other',
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
  creditLastApproach(ordered, candidates);
  everyWayFailed(ordered, candidates);
  const deploys = tried.length > 0 || (goal !== null && asksForDeployment(goal.text));
  if (!input.isSubagent && deploys) {
    const leads = sessionLeads(input, tried, goal?.ordinal ?? null);
    for (const lead of untestedLeads(input, tried, leads, goal?.text ?? null)) {
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
    // The path turns among the serving stacks, and among the sidecars asked for: going from the server on to its gateway is no turn.
    pivots: [...findPivots(tried.filter((c) => !isSidecar(c)), input.messages), ...findPivots(tried.filter(isSidecar), input.messages)]
      .sort((a, b) => a.message_ordinal - b.message_ordinal),
  };
}
