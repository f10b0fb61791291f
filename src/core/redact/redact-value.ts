import { isSecretName } from './names.js';
import { applySpans, findSecrets, kindOf, mayHoldSecret, redactionMarker, redactText, type RedactionCounts, type Span } from './redact.js';
import { mergeSpans } from './scan.js';
import { isLiteralSecret } from './values.js';

/**
 * Redacts a parsed JSON value (a tool's input, an agent's extra fields), judging each string with
 * what surrounds it: its key (`"password": "two words"` is a secret whatever its shape), its
 * sibling (`{"name": "DB_PASSWORD", "value": …}`), the object it sits in (every value under a
 * Kubernetes Secret's `data`), and the other strings of an argv array (`["mysql", "-pX"]` reads as
 * the command line it is). Walked with a stack, not recursion: nesting depth is no limit.
 */

type Container = unknown[] | Record<string, unknown>;

interface Task {
  source: Container;
  target: Container;
  /** Every string inside is a secret (the data of a Kubernetes Secret). */
  forced: boolean;
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function emptyLike(value: Container): Container {
  return Array.isArray(value) ? [] : {};
}

function put(target: Container, key: string | number, value: unknown): void {
  // defineProperty: a key named `__proto__` stays an ordinary key, as JSON.parse made it.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The kind of the one secret that is the whole value, if it is one (`"token": "hf_…"`). */
function wholeKind(value: string): string | null {
  const spans = findSecrets(value);
  const first = spans[0];
  if (spans.length === 1 && first && value.slice(0, first.start).trim() === '' && value.slice(first.end).trim() === '') return kindOf(first);
  return null;
}

function judge(value: string, secretByPlace: string | null, counts: RedactionCounts, spans?: readonly Span[]): string {
  if (secretByPlace !== null && isLiteralSecret(value)) {
    const kind = wholeKind(value) ?? secretByPlace;
    counts[kind] = (counts[kind] ?? 0) + 1;
    return redactionMarker(kind);
  }
  return spans ? applySpans(value, spans, counts) : redactText(value, counts);
}

/** Secrets of an argv read as one command line, split back onto its elements. */
function argvSpans(parts: readonly string[]): Span[][] | null {
  const joined = parts.join(' ');
  if (!mayHoldSecret(joined)) return null;
  const spans = findSecrets(joined);
  if (spans.length === 0) return null;
  const byPart: Span[][] = parts.map((part) => findSecrets(part));
  let offset = 0;
  parts.forEach((part, i) => {
    const end = offset + part.length;
    for (const span of spans) {
      const start = Math.max(span.start, offset);
      const stop = Math.min(span.end, end);
      if (start < stop) byPart[i]?.push({ start: start - offset, end: stop - offset, rule: span.rule });
    }
    offset = end + 1;
  });
  return byPart.map((list) => mergeSpans(list));
}

function walkArray(task: Task, source: unknown[], stack: Task[], counts: RedactionCounts): void {
  const argv = source.length >= 2 && source.every((item) => typeof item === 'string') ? argvSpans(source as string[]) : null;
  source.forEach((item, i) => {
    if (typeof item === 'string') put(task.target, i, judge(item, task.forced ? 'kubernetes-secret' : null, counts, argv?.[i]));
    else if (isContainer(item)) {
      const target = emptyLike(item);
      put(task.target, i, target);
      stack.push({ source: item, target, forced: task.forced });
    } else put(task.target, i, item);
  });
}

function walkObject(task: Task, source: Record<string, unknown>, stack: Task[], counts: RedactionCounts): void {
  const secretObject = source['kind'] === 'Secret';
  // {"name": "DB_PASSWORD", "value": "…"}: the value is named by its sibling.
  const sibling = source['name'] ?? source['key'] ?? source['Name'];
  const namedValue = typeof sibling === 'string' && isSecretName(sibling);
  for (const [key, item] of Object.entries(source)) {
    const outKey = mayHoldSecret(key) ? redactText(key, counts) : key;
    if (typeof item === 'string') {
      const byPlace = task.forced ? 'kubernetes-secret' : isSecretName(key) || (namedValue && /^value$/i.test(key)) ? 'secret-field' : null;
      put(task.target, outKey, judge(item, byPlace, counts));
    } else if (isContainer(item)) {
      const target = emptyLike(item);
      put(task.target, outKey, target);
      stack.push({ source: item, target, forced: task.forced || (secretObject && (key === 'data' || key === 'stringData')) });
    } else put(task.target, outKey, item);
  }
}

/** Redacts every string inside a JSON-like value; keys stay unless they hold a secret themselves. */
export function redactValue(value: unknown, counts: RedactionCounts): unknown {
  if (typeof value === 'string') return redactText(value, counts);
  if (!isContainer(value)) return value;
  const root = emptyLike(value);
  const stack: Task[] = [{ source: value, target: root, forced: false }];
  for (let task = stack.pop(); task; task = stack.pop()) {
    if (Array.isArray(task.source)) walkArray(task, task.source, stack, counts);
    else walkObject(task, task.source, stack, counts);
  }
  return root;
}
