import { SECRET_RULES, type SecretRule } from './patterns.js';

/** What a redaction pass removed, by kind. */
export type RedactionCounts = Record<string, number>;

export const REDACTION_PREFIX = '[REDACTED:';

export function redactionMarker(kind: string): string {
  return `${REDACTION_PREFIX}${kind}]`;
}

interface CompiledRule {
  rule: SecretRule;
  /** Index of this rule's wrapping group in the combined expression. */
  wrapperGroup: number;
  /** Indexes of the rule's own capture groups in the combined expression. */
  innerGroups: number[];
}

function countGroups(pattern: string): number {
  // A regex that can match the empty string reports every group it has in the match array.
  const probe = new RegExp(`${pattern}|`).exec('');
  return probe ? probe.length - 1 : 0;
}

function compile(rules: readonly SecretRule[]): { expression: RegExp; compiled: CompiledRule[] } {
  const compiled: CompiledRule[] = [];
  const sources: string[] = [];
  let group = 1;
  for (const rule of rules) {
    const inner = countGroups(rule.pattern);
    compiled.push({
      rule,
      wrapperGroup: group,
      innerGroups: Array.from({ length: inner }, (_, i) => group + 1 + i),
    });
    sources.push(`(${rule.pattern})`);
    group += 1 + inner;
  }
  return { expression: new RegExp(sources.join('|'), 'g'), compiled };
}

/** Combined expressions, compiled once per set of rules whose anchors a text carries. */
const compiledBySet = new Map<string, { expression: RegExp; compiled: CompiledRule[] }>();

function expressionFor(text: string): { expression: RegExp; compiled: CompiledRule[] } | null {
  // Literal anchors are scanned fast (Boyer-Moore); one combined alternation is not.
  const active = SECRET_RULES.filter((rule) => rule.anchor.test(text));
  if (active.length === 0) return null;
  const key = active.map((rule) => rule.kind).join(',');
  let entry = compiledBySet.get(key);
  if (!entry) {
    entry = compile(active);
    compiledBySet.set(key, entry);
  }
  return entry;
}

/** Whole-value tests for the vendor shapes, to name what a generic rule (`X_TOKEN=…`) caught. */
const VENDOR_SHAPES = SECRET_RULES.filter((rule) => rule.secretGroup === 0).map((rule) => ({
  kind: rule.kind,
  test: new RegExp(`^(?:${rule.pattern})$`),
}));

function kindOf(entry: CompiledRule, secret: string): string {
  if (entry.rule.secretGroup === 0) return entry.rule.kind;
  return VENDOR_SHAPES.find((shape) => shape.test.test(secret))?.kind ?? entry.rule.kind;
}

function secretOf(entry: CompiledRule, groups: unknown[]): string | undefined {
  const { secretGroup } = entry.rule;
  if (secretGroup === 0) return undefined;
  if (secretGroup > 0) return groups[entry.innerGroups[secretGroup - 1] ?? -1] as string | undefined;
  for (const index of entry.innerGroups) {
    const value = groups[index];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** False when no rule could match anything in `text` (the common case, decided cheaply). */
export function mayHoldSecret(text: string): boolean {
  return text.length >= 8 && expressionFor(text) !== null;
}

/**
 * Replaces every secret in `text` with a marker naming its kind and counts what it replaced
 * into `counts`. Pure apart from that accumulator; digests, SHAs, UUIDs and model names pass.
 */
export function redactText(text: string, counts: RedactionCounts): string {
  if (text.length < 8) return text;
  const active = expressionFor(text);
  if (!active) return text;
  const { expression, compiled } = active;
  expression.lastIndex = 0;
  return text.replace(expression, (match: string, ...rest: unknown[]) => {
    // rest = [g1, g2, …, offset, whole, groups?]; index so that groups[n] is group n.
    const groups = [match, ...rest];
    const entry = compiled.find((candidate) => groups[candidate.wrapperGroup] !== undefined);
    if (!entry) return match;
    const secret = secretOf(entry, groups);
    if (secret === undefined) {
      counts[entry.rule.kind] = (counts[entry.rule.kind] ?? 0) + 1;
      return redactionMarker(entry.rule.kind);
    }
    if (secret.startsWith(REDACTION_PREFIX)) return match;
    const kind = kindOf(entry, secret);
    const at = match.lastIndexOf(secret);
    counts[kind] = (counts[kind] ?? 0) + 1;
    return match.slice(0, at) + redactionMarker(kind) + match.slice(at + secret.length);
  });
}

/** Redacts every string inside a JSON-like value (object keys stay as they are). */
export function redactValue(value: unknown, counts: RedactionCounts): unknown {
  if (typeof value === 'string') return redactText(value, counts);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, counts));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactValue(item, counts);
    return out;
  }
  return value;
}

export function totalRedactions(counts: RedactionCounts): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}
