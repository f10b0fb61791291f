import { SECRET_RULES } from './patterns.js';
import { compileRules, hasKeyword, mergeSpans, scanText, type ScanStats, type Span } from './scan.js';
import { compose, toOriginal, unescaped, withoutEscapes, type View } from './views.js';

/** What a redaction pass removed, by kind. */
export type RedactionCounts = Record<string, number>;

export const REDACTION_PREFIX = '[REDACTED:';

export function redactionMarker(kind: string): string {
  return `${REDACTION_PREFIX}${kind}]`;
}

const RULES = compileRules(SECRET_RULES);

/** The kind a span's rule reports. */
export function kindOf(span: Span): string {
  return SECRET_RULES[span.rule]?.id ?? 'secret';
}

/** False when no rule could match anything in `text` (the common case, decided by one literal scan). */
export function mayHoldSecret(text: string): boolean {
  return text.length >= 8 && hasKeyword(text, RULES);
}

/** JSON escaped inside JSON inside JSON is read up to this many levels deep. */
const UNESCAPE_LEVELS = 2;

function addMapped(spans: Span[], found: readonly Span[], view: View | null): void {
  for (const span of found) {
    if (!view) {
      spans.push(span);
      continue;
    }
    const [start, end] = toOriginal(view, span.start, span.end);
    spans.push({ start, end, rule: span.rule });
  }
}

/**
 * Every secret in `text`, as merged spans of the original. The text is read as it is, without its
 * terminal escapes, and with up to two levels of JSON escaping undone; what any reading finds is
 * removed from the original.
 */
export function findSecrets(text: string, stats?: ScanStats): Span[] {
  if (text.length < 8) return [];
  const plain = withoutEscapes(text);
  const base = plain?.text ?? text;
  if (!hasKeyword(base, RULES)) return [];
  const spans: Span[] = [];
  addMapped(spans, scanText(base, RULES, stats), plain);
  let view: View | null = plain;
  let current = base;
  for (let level = 0; level < UNESCAPE_LEVELS; level++) {
    const next = unescaped(current);
    if (!next) break;
    view = view ? compose(view, next) : next;
    addMapped(spans, scanText(next.text, RULES, stats), view);
    current = next.text;
  }
  return mergeSpans(spans);
}

/** Replaces each span of `text` with the marker of its kind, counting into `counts`. */
export function applySpans(text: string, spans: readonly Span[], counts: RedactionCounts): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let last = 0;
  for (const span of spans) {
    if (span.start < last) continue;
    const kind = kindOf(span);
    parts.push(text.slice(last, span.start), redactionMarker(kind));
    counts[kind] = (counts[kind] ?? 0) + 1;
    last = span.end;
  }
  parts.push(text.slice(last));
  return parts.join('');
}

/**
 * Replaces every secret in `text` with a marker naming its kind and counts what it replaced
 * into `counts`. Pure apart from that accumulator; digests, SHAs, UUIDs and model names pass.
 */
export function redactText(text: string, counts: RedactionCounts): string {
  return applySpans(text, findSecrets(text), counts);
}

export function totalRedactions(counts: RedactionCounts): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

export type { ScanStats, Span } from './scan.js';
