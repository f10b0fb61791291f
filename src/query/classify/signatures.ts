import type { CompiledSignature, RuleSet, SignatureEffect } from '../rules/compile.js';
import { renderLabel } from '../rules/compile.js';
import { activeRules } from '../rules/active.js';
import type { ActionKind } from './kinds.js';

/**
 * Output signatures: the lines of a tool's output that decide what happened. Each is a rule of the
 * rule files (`signatures:` — id, what it means, which action kinds it decides, its one-line label,
 * keywords for a cheap prefilter) with examples checked by the tests. `negative` = a probe's answer
 * is no; `failure` = the step broke; `success` and `ready` = the step did what it was for;
 * `positive` = a probe's answer is yes.
 */
export type { SignatureEffect };

export interface SignatureHit {
  name: string;
  effect: SignatureEffect;
  label: string;
  line: string;
  decisive: boolean;
}

const MAX_SCANNED_LINES = 5000;
/** The level a log line was written at, where it says (`INFO 04-08 10:06:24 [x.py:1]`, `level=info`, `[WARNING]`, `WARNING:`). */
const LOG_LEVEL = /^(?:\S*\s*\|\s*)?(?:\([^)]*\)\s*)?(?:\[?\d[\d:TZ.+-]*\]?\s+)?\[?(INFO|DEBUG|TRACE|WARN(?:ING)?|ERROR|CRITICAL|FATAL)\b|(?:^|\s)level=(info|debug|warn(?:ing)?|error)\b/i;

interface Scanner {
  /** Every keyword of every signature, one alternation: a single pass finds the lines worth trying. */
  anyKeyword: RegExp;
  signatures: readonly CompiledSignature[];
}

const scanners = new WeakMap<RuleSet, Scanner>();

function scannerFor(rules: RuleSet): Scanner {
  let scanner = scanners.get(rules);
  if (!scanner) {
    const keywords = [...new Set(rules.signatures.flatMap((s) => s.keywords))].sort((a, b) => b.length - a.length);
    const escaped = keywords.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    scanner = { anyKeyword: new RegExp(escaped.length > 0 ? escaped.join('|') : '(?!)', 'gi'), signatures: rules.signatures };
    scanners.set(rules, scanner);
  }
  return scanner;
}

function lineStartsOf(output: string): number[] {
  const starts = [0];
  for (let at = output.indexOf('\n'); at !== -1; at = output.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

function lineOf(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lineStarts[mid] as number) <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The indexes of the lines that hold at least one keyword, in order (head and tail only of a very long output). */
function keywordLines(output: string, lineStarts: readonly number[], anyKeyword: RegExp): number[] {
  const found: number[] = [];
  const total = lineStarts.length;
  anyKeyword.lastIndex = 0;
  for (let match = anyKeyword.exec(output); match; match = anyKeyword.exec(output)) {
    const line = lineOf(lineStarts, match.index);
    if (total > MAX_SCANNED_LINES && line >= MAX_SCANNED_LINES / 2 && line < total - MAX_SCANNED_LINES / 2) {
      // Jump to the tail: the middle of a huge output is not read.
      anyKeyword.lastIndex = lineStarts[total - MAX_SCANNED_LINES / 2] as number;
      continue;
    }
    if (found.at(-1) !== line) found.push(line);
    // The rest of this line cannot add a line: go to the next.
    anyKeyword.lastIndex = line + 1 < total ? (lineStarts[line + 1] as number) : output.length;
  }
  return found;
}

/**
 * Every signature found in an output, at most once per name and label. Only lines that hold a
 * keyword are tried, and on each line the first signature (by priority) that matches gives its meaning.
 */
export function scanSignatures(output: string | null, kind: ActionKind, rules: RuleSet = activeRules()): SignatureHit[] {
  if (!output) return [];
  const { anyKeyword, signatures } = scannerFor(rules);
  const lineStarts = lineStartsOf(output);
  const hits: SignatureHit[] = [];
  const seen = new Set<string>();
  for (const index of keywordLines(output, lineStarts, anyKeyword)) {
    const start = lineStarts[index] as number;
    const end = index + 1 < lineStarts.length ? (lineStarts[index + 1] as number) - 1 : output.length;
    const line = output.slice(start, end);
    const lower = line.toLowerCase();
    for (const signature of signatures) {
      if (!signature.keywords.some((keyword) => lower.includes(keyword))) continue;
      const match = signature.pattern.exec(line);
      if (!match) continue;
      // A log line at an informational level is no failure ("INFO … custom allreduce is disabled because it's not supported");
      // a warning is none for a catch-all (pip's "WARNING: Package(s) not found" still is what it says).
      const written = LOG_LEVEL.exec(line);
      const level = (written?.[1] ?? written?.[2])?.toUpperCase() ?? null;
      if ((signature.effect === 'failure' || signature.effect === 'negative') && level !== null && (/^(?:INFO|DEBUG|TRACE)$/.test(level) || (level.startsWith('WARN') && signature.generic))) continue;
      const label = renderLabel(signature.labels, match);
      const key = `${signature.name}\u0000${label}`;
      if (!seen.has(key)) {
        seen.add(key);
        hits.push({ name: signature.name, effect: signature.effect, label, line: line.trim(), decisive: signature.decides.includes(kind) });
      }
      break;
    }
  }
  return hits;
}

/** The signature of that name in the rule set in force (for its priority and whether it is a catch-all). */
export function signatureNamed(name: string, rules: RuleSet = activeRules()): CompiledSignature | undefined {
  return rules.signatures.find((s) => s.name === name);
}
