import { frameworkById, frameworks, frameworkIn, imageDisplayName, imageRepository, looksLikeModelId, parseImageRef } from '../classify/index.js';
import { namesFramework } from '../rules/compile.js';
import { asksForDeployment } from './goal.js';
import { LEAD_CUE, proseLeads } from './lead-prose.js';
import { sentences } from './text.js';
import type { CandidateKind } from './types.js';

/**
 * Leads: what the assistant names as something to try. Two shapes are recognised in its prose
 * (and in the reports its subagents return): image or repository references
 * (`lmsysorg/sglang:dev-cu13`, `nvcr.io/nvidia/vllm:25.12-py3`, `owner/repo` next to "image",
 * "build", "from source") and descriptive phrases around a framework name ("an NGC vLLM nightly").
 */
export interface LeadMention {
  ordinal: number;
  /** What the text says right after the name: "(nightly, unverified on arm64)", "— vLLM 0.10.2; …". */
  remark: string | null;
}

export interface Lead {
  name: string;
  kind: CandidateKind;
  framework: string | null;
  /** Set for image references: the repository, for matching untagged mentions to tried tags. */
  repository: string | null;
  tagged: boolean;
  /** Words of a descriptive lead that a tried image must also show to be the same thing (`nvcr.io`, `nightly`). */
  descriptive: string[] | null;
  /** For a framework named in prose: its version (`vLLM 0.6.4`), or null for the bare name. */
  version?: string | null;
  /** A bare framework name: dropped when a more specific lead, or a tried candidate, is of the same framework. */
  generic?: boolean;
  mentions: LeadMention[];
}

/** What the session tried, for reading leads: image tags to complete bare tags with, and the framework to read layouts for. */
export interface LeadContext {
  modelIds: ReadonlySet<string>;
  /** Repositories of tried images with one of their tags (`lmsysorg/sglang`, `v0.4.6.post1-rocm630`). */
  triedImages: readonly { repository: string; tag: string; framework: string | null }[];
  /** The framework the session works with (for spelling a layout: "TP=2" is vLLM's `--tensor-parallel-size 2`). */
  framework: string | null;
  /** Every framework the session tried: an option proposed for one of them needs no stack's name. */
  triedFrameworks?: ReadonlySet<string>;
}

const IMAGE_CONTEXT = /\b(?:images?|containers?|tags?|docker|pull(?:ed)?|builds?|built|repo(?:sitory)?|Dockerfile|registry|from[- ]source|NGC|Hub)\b/i;
const BUILD_CONTEXT = /\b(?:from[- ]source|source build|build(?:ing)? (?:it|from)|Dockerfile|git clone|repo(?:sitory)?)\b/i;
const PLATFORM = /^(?:linux|arm64|amd64|aarch64|x86_64|x86|sm_\d+a?|cuda|cu\d+|py\d+|v\d+)$/i;
/** A Kubernetes resource as kubectl names it (`svc/vllm-router-service`, `deploy/vllm`, `pod/sglang-0`): a thing running, not an image. */
const CLUSTER_RESOURCE = /^(?:svc|services?|deploy|deployments?|po|pods?|sts|statefulsets?|ds|daemonsets?|rs|replicasets?|jobs?|cronjobs?|cm|configmaps?|secrets?|ns|namespaces?|nodes?|no|ing|ingress(?:es)?|pvc|pv|hpa|sa|serviceaccounts?|endpoints?|ep|isvc|inferenceservices?|runtimeclass(?:es)?|crd)$/i;
const FILE_EXTENSION = /\.(?:py|json|ya?ml|log|sh|md|txt|toml|cfg|conf|service|safetensors|gguf|bin)$/i;
const TOKEN = /`[^`\n]+`|[^\s`]+/g;

/** Vendor words and where their images live. */
const VENDORS: Record<string, string> = { ngc: 'nvcr.io', nvidia: 'nvidia', docker: 'docker', official: '', community: '', upstream: '' };
const QUALIFIERS = new Set(['nightly', 'dev', 'preview', 'prebuilt', 'pre-built', 'custom', 'source', 'spark', 'arm64']);
const LEAD_NOUNS = new Set(['nightly', 'image', 'container', 'build', 'wheel', 'release']);
const GENERIC_NOUNS = new Set(['image', 'container']);

/** A sentence offering to remove or free something, not to run it. */
const CLEANUP = /\b(?:delete|prune|purge|wipe|clean(?:ing)?[ -]?up|free (?:up )?(?:the |some )?(?:space|disk)|(?:get|reclaim) (?:the |that )?(?:space|disk) back)\b/i;

/** A sentence of a request that tells what already runs ("ollama is already on the box", "we run TGI today") asks for none of it. */
const SAYS_WHAT_RUNS = /\b(?:already|currently|today|right now|at the moment|(?:is|are) (?:running|installed|up|serving))\b/i;

const TAG_WORDS = /^(?:latest|nightly|dev|main|stable|edge|spark|rocm|cpu|gpu|cuda|server|full|slim)$/i;

/** A tag's shape: its digits and letters blurred, so `v0.4.6.post5-rocm630` matches `v0.4.6.post1-rocm630`. */
function tagShape(tag: string): string {
  return tag.replace(/\d+/g, '0');
}

/**
 * An image reference in prose. It must be one of a serving stack (a framework's name is in it) or
 * a full `owner/name:tag` reference; paths, modules, cluster resources (`apps/embeddings`,
 * `gpu-h100-11/12`), throughput units (`tok/s`) and metric names are not images. A bare `name:tag`
 * counts for a framework whose models are pulled by tag (Ollama) when the sentence names it, and a
 * bare tag shaped like a tried image's tags is that repository's tag.
 */
function imageLead(raw: string, sentence: string, context: LeadContext, proposing: boolean): Omit<Lead, 'mentions'> | null {
  const backticked = raw.startsWith('`');
  const token = raw.replace(/^`|`$/g, '').replace(/^[("'[<*]+|[)"'\]>.,;:!?*]+$/g, '');
  if (!token || /:\/\/|^[/~.]|@|\s/.test(token) || FILE_EXTENSION.test(token) || /\.(?:py|json|ya?ml|md|txt|toml|sh|ts|js|go|rs|log):\d+$/i.test(token)) return null;
  // A bare tag is another image only when proposed: "the compose file pins `2.3.1-rocm`" tells what is there.
  const bareTag = backticked && proposing ? bareTagLead(token, context) : null;
  if (bareTag) return bareTag;
  if (!token.includes('/') && !token.includes(':')) return null;
  if (context.modelIds.has(token) || looksLikeModelId(token) || isAlternation(token)) return null;
  const ref = parseImageRef(token);
  if (!ref) return null;
  const segments = ref.path.split('/');
  if (segments.some((s) => PLATFORM.test(s)) || segments.every((s) => /^\d+$/.test(s))) return null;
  if (!ref.registry && segments.length === 2 && CLUSTER_RESOURCE.test(segments[0] ?? '')) return null;
  if (/^(?:\d+\.){3}\d+$|^localhost$/.test(segments[0] ?? '') || (ref.tag && /^\d+$/.test(ref.tag) && !ref.path.includes('/'))) return null;
  if (ref.tag && !/\d/.test(ref.tag) && !TAG_WORDS.test(ref.tag)) return null;
  const framework = frameworkIn(token);
  const serving = framework?.kind === 'framework' ? framework : null;
  if (!ref.registry && !ref.path.includes('/')) {
    // `qwen2.5-coder:14b` on Ollama: a model tag of a framework that pulls models by tag, when proposed
    // ("ollama active, `qwen2.5:32b` loaded on GPU 0" tells what is there).
    const byModel = frameworks().find((f) => f.candidateByModel && namesFramework(f, sentence));
    if (!backticked || !ref.tag || !byModel || !proposing) return null;
    return { name: token, kind: 'approach', framework: byModel.id, repository: null, tagged: true, descriptive: null };
  }
  if (!serving && !(ref.tag && ref.path.includes('/'))) return null;
  if (!ref.tag && !ref.registry && !backticked && !IMAGE_CONTEXT.test(sentence)) return null;
  const build = !ref.tag && BUILD_CONTEXT.test(sentence);
  return {
    name: imageDisplayName(token),
    kind: build ? 'framework' : 'image',
    framework: serving?.id ?? null,
    repository: imageRepository(ref),
    tagged: Boolean(ref.tag),
    descriptive: null,
  };
}

/**
 * Two names written as alternatives with a slash (`trtllm-build/trtllm-serve`, `sglang-n0/n1`):
 * the second shares the first's stem before its dash, or replaces its last part. No repository
 * is spelled so (an owner is no hyphenated variant of its image's name).
 */
function isAlternation(token: string): boolean {
  // "llama.cpp/ollama": two stacks, either of them (`vllm/vllm-openai` is one stack's image).
  const stacks = token.includes(':') ? [] : token.split('/').map((part) => frameworks().find((f) => f.kind === 'framework' && namesFramework(f, part)) ?? null);
  if (stacks.length > 1 && stacks.every((f) => f !== null) && new Set(stacks.map((f) => f?.id)).size === stacks.length) return true;
  const [first, second, ...rest] = token.split('/');
  if (rest.length > 0 || !first || !second || token.includes(':') || !first.includes('-')) return false;
  const stem = first.slice(0, first.lastIndexOf('-') + 1);
  return second.startsWith(first.slice(0, first.indexOf('-') + 1)) || (/^[\w.]{1,4}$/.test(second) && stem.length > 1);
}

function bareTagLead(token: string, context: LeadContext): Omit<Lead, 'mentions'> | null {
  if (token.includes('/') || token.includes(':') || !/^v?\d[\w.+-]*[a-z][\w.+-]*$|^v?\d+\.\d+[\w.+-]*$/i.test(token)) return null;
  const tried = context.triedImages.find((t) => t.tag !== token && tagShape(t.tag) === tagShape(token));
  if (!tried) return null;
  return { name: `${tried.repository}:${token}`, kind: 'image', framework: tried.framework, repository: tried.repository, tagged: true, descriptive: null };
}

/** "an NGC vLLM nightly", "the official SGLang spark image": article, qualifiers, a framework, a lead noun. */
/** A verb after a phrase that makes it the subject of a statement of fact. */
const STATEMENT = /^(?:is|was|are|were|has|had|pins|requires|needs|ships|expects|comes|depends|fails|failed|works|worked)$/i;

function descriptiveLeads(sentence: string, proposes: boolean): Omit<Lead, 'mentions'>[] {
  const words = sentence.replace(/[`*()[\],;:]/g, ' ').split(/\s+/).map((w) => w.replace(/[.!?]+$/, '')).filter(Boolean);
  const found: Omit<Lead, 'mentions'>[] = [];
  words.forEach((word, index) => {
    const framework = frameworks().find((f) => f.kind === 'framework' && namesFramework(f, word) && word.length <= f.label.length + 2);
    if (!framework) return;
    let start = index;
    while (start > 0 && index - start < 3 && !/^(?:an?|the)$/i.test(words[start - 1] as string) && (VENDORS[(words[start - 1] as string).toLowerCase()] !== undefined || QUALIFIERS.has((words[start - 1] as string).toLowerCase()))) start -= 1;
    if (start === 0 || !/^(?:an?|the)$/i.test(words[start - 1] as string)) return;
    let end = index;
    while (end + 1 < words.length && end - index < 2 && (QUALIFIERS.has((words[end + 1] as string).toLowerCase()) || LEAD_NOUNS.has((words[end + 1] as string).toLowerCase()))) end += 1;
    // "the prebuilt exllamav2 wheel is built against torch 2.6.0" says what the thing in use is; it proposes nothing.
    if (!proposes && STATEMENT.test(words[end + 1] ?? '')) return;
    const phrase = words.slice(start, end + 1);
    const lower = phrase.map((w) => w.toLowerCase());
    if (!lower.some((w) => LEAD_NOUNS.has(w))) return;
    const strong = lower.filter((w) => w !== framework.label.toLowerCase() && (VENDORS[w] !== undefined || QUALIFIERS.has(w)));
    if (strong.length === 0) return;
    while (phrase.length > 3 && GENERIC_NOUNS.has((phrase.at(-1) as string).toLowerCase())) phrase.pop();
    found.push({
      name: phrase.join(' '),
      kind: lower.some((w) => w === 'wheel' || w === 'build' || w === 'source') ? 'framework' : 'image',
      framework: framework.id,
      repository: null,
      tagged: false,
      descriptive: lower.flatMap((w) => (VENDORS[w] ? [VENDORS[w] as string] : QUALIFIERS.has(w) ? [w] : [])).filter(Boolean),
    });
  });
  return found;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The remark right after `name` in `text` (the name's words may be split by any whitespace). */
function remarkAfter(text: string, name: string): string | null {
  const found = new RegExp(name.split(/\s+/).map(escape).join('\\s+')).exec(text);
  if (!found) return null;
  const rest = text.slice(found.index + found[0].length);
  const parenthetical = /^\s*\(([^)]{3,140})\)/.exec(rest);
  if (parenthetical) return (parenthetical[1] as string).trim();
  const dash = /^\s*(?:[—–:]|-\s)\s*([^\n]{3,160})/.exec(rest);
  if (dash) return (dash[1] as string).replace(/[.\s]+$/, '').trim();
  return null;
}

/** A line that opens a list of proposals ("Options:", "Next options:", "Not tried:", "Fallbacks:"). */
function opensProposals(line: string): boolean {
  return /:\s*$/.test(line.trim()) && LEAD_CUE.test(line);
}

/** A text leads are read from: the assistant's (and its subagents'), or the user's. */
export interface LeadText {
  ordinal: number;
  text: string;
  user?: boolean;
  /** The user's deployment request (the goal's message): a sentence of it that asks for a deployment proposes the stacks it names. */
  request?: boolean;
}

/**
 * Every lead named in the given texts, merged by name, in order of first mention. Assistant text
 * is read for images and proposals; user text (`user: true`) for image references and for proposals
 * its own sentences make; the request for the serving stacks it asks for.
 */
export function extractLeads(texts: readonly LeadText[], context: LeadContext): Lead[] {
  const leads = new Map<string, Lead>();
  const add = (lead: Omit<Lead, 'mentions'>, mention: LeadMention): void => {
    // "vLLM source build" and "vLLM from source" are one lead, called as it was first.
    const key = lead.name.toLowerCase().replace(/ source build$/, ' from source');
    const existing = leads.get(key);
    if (existing) {
      if (!existing.mentions.some((m) => m.ordinal === mention.ordinal)) existing.mentions.push(mention);
      else if (mention.remark) {
        const same = existing.mentions.find((m) => m.ordinal === mention.ordinal);
        if (same && !same.remark) same.remark = mention.remark;
      }
      return;
    }
    leads.set(key, { ...lead, mentions: [mention] });
  };
  /** How each lead was spelled in each text, to read the user's choice among the options a text offered. */
  const spelled = new Map<number, { key: string; as: string }[]>();
  const spell = (ordinal: number, name: string, as: string): void => {
    spelled.set(ordinal, [...(spelled.get(ordinal) ?? []), { key: name.toLowerCase(), as: as.replace(/^`|`$/g, '').replace(/^[("'[<*]+|[)"'\]>.,;:!?*]+$/g, '') }]);
  };
  for (const { ordinal, text, user, request } of texts) {
    let proposing = false;
    for (const line of text.split('\n')) {
      if (line.trim() === '') proposing = false;
      const listItem = /^\s*(?:[-*•]|\d+[.)])\s+/.test(line);
      if (!listItem && !opensProposals(line)) proposing = false;
      for (const sentence of sentences(line)) {
        // Offering to clean up ("I can delete it if you want the space back") proposes nothing to run.
        if (!user && CLEANUP.test(sentence)) continue;
        const proposes = (proposing && listItem) || LEAD_CUE.test(sentence);
        for (const raw of sentence.match(TOKEN) ?? []) {
          const lead = imageLead(raw, sentence, context, proposes);
          if (lead) {
            add(lead, { ordinal, remark: remarkAfter(line, raw) });
            spell(ordinal, lead.name, raw);
          }
        }
        if (!user) for (const lead of descriptiveLeads(sentence, proposes)) add(lead, { ordinal, remark: remarkAfter(line, lead.name) });
        // The user proposes too ("keep ollama as a fallback", "we'll try TGI tomorrow"), in a sentence that says so,
        // and the request asks for a stack ("install Ollama with winget, then pull llama3.1:8b"): one never run is untested.
        const asks = request === true && asksForDeployment(sentence) && !SAYS_WHAT_RUNS.test(sentence);
        for (const lead of proseLeads(sentence, (!user && proposing && listItem) || asks, frameworkById(context.framework), context.triedFrameworks)) {
          // The user's own proposals are read for other serving stacks, not for options of the one tried.
          if (user && lead.kind !== 'framework') continue;
          // What a request asks for is read for stacks a rule file knows: any other name there is a tool to install, not a server.
          if (asks && lead.framework === null && !LEAD_CUE.test(sentence)) continue;
          add({ name: lead.name, kind: lead.kind, framework: lead.framework, repository: null, tagged: false, descriptive: lead.descriptive ?? null, version: lead.version, generic: lead.generic }, { ordinal, remark: remarkAfter(line, lead.name) });
        }
      }
      if (opensProposals(line)) proposing = true;
    }
  }
  for (const [ordinal, declined] of declinedOptions(texts, spelled)) {
    for (const key of declined) {
      const lead = leads.get(key);
      if (!lead) continue;
      lead.mentions = lead.mentions.filter((m) => m.ordinal !== ordinal);
      if (lead.mentions.length === 0) leads.delete(key);
    }
  }
  return [...leads.values()];
}

/** A question that asks the user to pick ("Which do you want?", "Shall I go with A or B?"). */
const ASKS_TO_PICK = /\b(?:which|want|prefer|shall I|should I|or)\b[^?]*\?/i;

/**
 * Options the assistant offered the user to choose from, when the user's answer picked some of them
 * by name: the others were declined, not left to try ("`1.3.3` or `1.8.6` (newest). Which do you
 * want?" — "1.3.3"). Per offering text, the keys of the leads declined there.
 */
function declinedOptions(texts: readonly LeadText[], spelled: ReadonlyMap<number, { key: string; as: string }[]>): Map<number, string[]> {
  const declined = new Map<number, string[]>();
  texts.forEach(({ ordinal, text, user }, index) => {
    const answer = texts[index + 1];
    const offered = spelled.get(ordinal) ?? [];
    if (user || !answer?.user || offered.length < 2 || !ASKS_TO_PICK.test(text)) return;
    const said = (as: string): boolean => new RegExp(`(?<![\\w.:/-])${escape(as)}(?![\\w:/-]|\\.\\w)`, 'i').test(answer.text);
    const picked = offered.filter((o) => said(o.as));
    if (picked.length === 0 || picked.length === offered.length) return;
    declined.set(ordinal, offered.filter((o) => !picked.some((p) => p.key === o.key)).map((o) => o.key));
  });
  return declined;
}
