import { isSecretFlag, isSecretHeader, isSecretName } from './names.js';
import { regexBounds } from './regex-bounds.js';
import type { SecretRule } from './rule.js';
import { isLiteralSecret, isPlaceholder } from './values.js';

/**
 * Finding secrets in one text, in time linear in its length. One pass finds every keyword; each
 * rule then runs only inside windows around its own keywords, each window as wide as the rule's
 * longest match (read from its bounded expression), overlapping windows merged, so no character is
 * scanned by a rule more than once. Every rule runs on its own and reports spans; spans of all
 * rules are merged afterwards, so a match of one rule can never hide a secret from another.
 */

export interface Span {
  start: number;
  end: number;
  /** Index of the rule in the rule list: a lower index names the kind where spans overlap. */
  rule: number;
}

/** What a scan did, for tests that prove the work is linear. */
export interface ScanStats {
  keywordHits: number;
  windows: number;
  /** Characters of text the rules' expressions were run over, margins included. */
  scannedChars: number;
}

interface CompiledRule {
  rule: SecretRule;
  regex: RegExp;
  each: RegExp | null;
  allow: RegExp[];
  /** A window reaches this far before a keyword and this far after it (the longest match, plus `afterKeyword.within`). */
  behind: number;
  ahead: number;
  /** Characters of context the expression reads before and after a match (lookarounds, `\b`). */
  before: number;
  after: number;
}

/** What one scan of one text works out once and shares between its rules and windows. */
interface ScanContext {
  text: string;
  /** Offsets of `\n`, `;` and `|`: where a command ends. Found on first use. */
  separators?: number[];
  /** Offsets of each rule's `near` literals. */
  near: Map<number, number[]>;
  /** Per rule: how far a block rule's regions already reached (a block inside a block is covered). */
  covered: Map<number, number>;
  stats?: ScanStats;
}

export interface RuleSet {
  rules: readonly CompiledRule[];
  keywords: RegExp;
  rulesByKeyword: ReadonlyMap<string, readonly number[]>;
}

function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

export function compileRules(rules: readonly SecretRule[]): RuleSet {
  const compiled = rules.map((rule): CompiledRule => {
    const bounds = regexBounds(rule.regex);
    if (!Number.isFinite(bounds.maxLength)) throw new Error(`secret rule ${rule.id}: unbounded expression`);
    if (rule.keywords.length === 0) throw new Error(`secret rule ${rule.id}: no keywords`);
    return {
      rule,
      regex: new RegExp(rule.regex, `gd${rule.caseInsensitive ? 'i' : ''}`),
      each: rule.each ? new RegExp(rule.each, 'gd') : null,
      allow: (rule.allowlist?.regexes ?? []).map((source) => new RegExp(source)),
      behind: bounds.maxLength,
      ahead: bounds.maxLength + (rule.afterKeyword?.within ?? 0),
      before: bounds.maxLookbehind + 1,
      after: bounds.maxLookahead + 1,
    };
  });
  const words = [...new Set(rules.flatMap((rule) => rule.keywords.map((k) => k.toLowerCase())))].sort((a, b) => b.length - a.length);
  const rulesByKeyword = new Map<string, number[]>();
  for (const word of words) {
    const indexes: number[] = [];
    rules.forEach((rule, index) => {
      if (rule.keywords.some((k) => word.startsWith(k.toLowerCase()))) indexes.push(index);
    });
    rulesByKeyword.set(word, indexes);
  }
  return { rules: compiled, keywords: new RegExp(words.map(escapeLiteral).join('|'), 'gi'), rulesByKeyword };
}

/** Keyword occurrences per rule: [start, end] pairs, in order. */
function keywordHits(text: string, set: RuleSet, stats?: ScanStats): Map<number, number[]> | null {
  const hits = new Map<number, number[]>();
  const { keywords } = set;
  keywords.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = keywords.exec(text)) !== null) {
    const at = match.index;
    const word = match[0].toLowerCase();
    for (const rule of set.rulesByKeyword.get(word) ?? []) {
      let list = hits.get(rule);
      if (!list) hits.set(rule, (list = []));
      list.push(at, at + word.length);
    }
    if (stats) stats.keywordHits += 1;
    // Keywords may overlap (`_authtoken` holds `token`): look again one character on.
    keywords.lastIndex = at + 1;
  }
  return hits.size > 0 ? hits : null;
}

/** True when any keyword of any rule occurs in `text`. */
export function hasKeyword(text: string, set: RuleSet): boolean {
  set.keywords.lastIndex = 0;
  return set.keywords.test(text);
}

function nameAllowed(rule: SecretRule, match: RegExpExecArray): boolean {
  if (!rule.name) return true;
  const name = rule.name.groups.map((g) => match[g]).find((value) => value !== undefined);
  if (name === undefined) return false;
  switch (rule.name.kind) {
    case 'variable':
      return isSecretName(name);
    case 'flag':
      return isSecretFlag(name);
    case 'header':
      return isSecretHeader(name);
  }
}

function valueAllowed(compiled: CompiledRule, value: string): boolean {
  if (compiled.allow.some((pattern) => pattern.test(value))) return false;
  return compiled.rule.values === 'literal' ? isLiteralSecret(value) : !isPlaceholder(value);
}

/** Where a YAML block that starts on the line of `at` ends: the last following line indented deeper. */
function indentedBlockEnd(text: string, at: number, limit: number): number {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, lineStart + 256))?.[0].length ?? 0;
  let end = text.indexOf('\n', at);
  if (end === -1) return text.length;
  while (end < limit) {
    const next = text.indexOf('\n', end + 1);
    const line = text.slice(end + 1, next === -1 ? text.length : next);
    const depth = /^[ \t]*/.exec(line)?.[0].length ?? 0;
    if (line.trim().length > 0 && depth <= indent) break;
    end = next === -1 ? text.length : next;
    if (next === -1) break;
  }
  return Math.min(end, limit);
}

/** Sorted offsets of every occurrence of `literals` in `text`. */
function literalOffsets(text: string, literals: readonly string[]): number[] {
  const offsets: number[] = [];
  for (const literal of literals) {
    for (let at = text.indexOf(literal); at !== -1; at = text.indexOf(literal, at + 1)) offsets.push(at);
  }
  return offsets.sort((a, b) => a - b);
}

/** The index of the first entry of sorted `list` that is >= `value`. */
function lowerBound(list: readonly number[], value: number, low = 0, high = list.length): number {
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

function isNear(context: ScanContext, index: number, rule: SecretRule, start: number, end: number): boolean {
  if (!rule.near) return true;
  let offsets = context.near.get(index);
  if (!offsets) context.near.set(index, (offsets = literalOffsets(context.text, rule.near.literals)));
  const first = offsets[lowerBound(offsets, start - rule.near.within)];
  return first !== undefined && first <= end + rule.near.within;
}

/** Spans of the secrets one accepted match holds. */
function secretsOf(compiled: CompiledRule, index: number, context: ScanContext, match: RegExpExecArray, offset: number, out: Span[]): boolean {
  const { rule } = compiled;
  const { text } = context;
  if (!nameAllowed(rule, match)) return false;
  let start = offset + match.index;
  let end = start + match[0].length;
  const groups = rule.secretGroups ?? [];
  if (groups.length > 0) {
    const group = groups.find((g) => match[g] !== undefined);
    const where = group === undefined ? undefined : match.indices?.[group];
    if (!where) return false;
    [start, end] = [offset + where[0], offset + where[1]];
  }
  if (!isNear(context, index, rule, start, end)) return false;
  if (rule.block === 'indented') {
    if (start < (context.covered.get(index) ?? -1)) return true;
    end = indentedBlockEnd(text, end, Math.min(text.length, end + 65_536));
    context.covered.set(index, end);
  }
  if (!compiled.each) {
    if (!valueAllowed(compiled, text.slice(start, end))) return false;
    out.push({ start, end, rule: index });
    return true;
  }
  const region = text.slice(start, end);
  compiled.each.lastIndex = 0;
  let found = false;
  for (const item of region.matchAll(compiled.each)) {
    // The first group that took part is the secret (a quoted or a bare value).
    const group = item.findIndex((value, g) => g > 0 && value !== undefined);
    const where = group > 0 ? item.indices?.[group] : undefined;
    if (!where || where[1] <= where[0]) continue;
    if (!valueAllowed(compiled, region.slice(where[0], where[1]))) continue;
    out.push({ start: start + where[0], end: start + where[1], rule: index });
    found = true;
  }
  return found;
}

/** Whether a keyword hit lies wholly inside `[start, end)`: binary search, then at most one look per character. */
function containsHit(hits: readonly number[], from: number, to: number, start: number, end: number): boolean {
  let low = from / 2;
  let high = to / 2;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((hits[mid * 2] as number) < start) low = mid + 1;
    else high = mid;
  }
  for (let k = low * 2; k < to && (hits[k] as number) < end; k += 2) {
    if ((hits[k + 1] as number) <= end) return true;
  }
  return false;
}

/** Whether a keyword hit ends at most `within` before `start`, with no command separator between. */
function followsHit(context: ScanContext, hits: readonly number[], from: number, to: number, start: number, within: number): boolean {
  // The last hit that ends at or before `start`.
  let low = from / 2;
  let high = to / 2;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((hits[mid * 2 + 1] as number) <= start) low = mid + 1;
    else high = mid;
  }
  if (low === from / 2) return false;
  const hitEnd = hits[(low - 1) * 2 + 1] as number;
  if (start - hitEnd > within) return false;
  context.separators ??= literalOffsets(context.text, ['\n', ';', '|']);
  const next = context.separators[lowerBound(context.separators, hitEnd)];
  return next === undefined || next >= start;
}

/** Runs one rule over one window `[ws, we)` of `text`, whose keyword hits are `hits[from..to)`. */
function scanWindow(compiled: CompiledRule, index: number, context: ScanContext, hits: readonly number[], from: number, to: number, out: Span[]): void {
  const { text, stats } = context;
  const ws = Math.max(0, (hits[from] as number) - compiled.behind);
  const we = Math.min(text.length, (hits[to - 1] as number) + compiled.ahead);
  const sliceStart = Math.max(0, ws - compiled.before);
  const sliceEnd = Math.min(text.length, we + compiled.after);
  const slice = text.slice(sliceStart, sliceEnd);
  if (stats) {
    stats.windows += 1;
    stats.scannedChars += slice.length;
  }
  const { regex } = compiled;
  regex.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = regex.exec(slice)) !== null) {
    const start = sliceStart + match.index;
    const end = start + match[0].length;
    const within = compiled.rule.afterKeyword?.within;
    const anchored = within === undefined ? containsHit(hits, from, to, start, end) : followsHit(context, hits, from, to, start, within);
    const inside = start >= ws && end <= we && anchored;
    if (match[0].length === 0 || !inside || !secretsOf(compiled, index, context, match, sliceStart, out)) {
      // Rejected: a shorter match may start one character on.
      regex.lastIndex = match.index + 1;
    }
  }
}

/** Every secret span in `text`, unmerged. */
export function scanText(text: string, set: RuleSet, stats?: ScanStats): Span[] {
  const hits = keywordHits(text, set, stats);
  if (!hits) return [];
  const spans: Span[] = [];
  const context: ScanContext = { text, near: new Map(), covered: new Map(), ...(stats ? { stats } : {}) };
  for (const [index, list] of hits) {
    const compiled = set.rules[index] as CompiledRule;
    let from = 0;
    for (let k = 2; k <= list.length; k += 2) {
      // A new window starts where the next keyword's window no longer overlaps this one.
      const next = k < list.length ? (list[k] as number) - compiled.behind : Infinity;
      if (next > (list[k - 1] as number) + compiled.ahead) {
        scanWindow(compiled, index, context, list, from, k, spans);
        from = k;
      }
    }
  }
  return spans;
}

/** Overlapping spans joined; where rules overlap, the first rule in the list names the kind. */
export function mergeSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || a.rule - b.rule);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
      last.rule = Math.min(last.rule, span.rule);
    } else {
      merged.push({ ...span });
    }
  }
  return merged;
}
