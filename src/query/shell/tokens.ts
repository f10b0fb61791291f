import { parse, type ParseEntry } from 'shell-quote';

/**
 * One line of shell as words and operators. shell-quote does the quoting rules; this layer lifts
 * command substitutions out first (shell-quote cannot tell `'$(x)'` from `"$(x)"`, and only the
 * second runs), glues back `2>&1`, and keeps variables literal: retrace reads commands, it never
 * expands them.
 */
export interface WordToken {
  kind: 'word';
  value: string;
  /** Scripts inside `$( … )` or backticks in this word, to be parsed as commands of their own. */
  substitutions: string[];
}

export interface OpToken {
  kind: 'op';
  op: string;
}

export type Token = WordToken | OpToken;

const PLACEHOLDER = /\uE000(\d+)\uE000/g;
/** Marks a lone digit word spaced from a redirection after it (`--workers 1 > build.log`): an argument, not a file descriptor. */
const SPACED_DIGIT = '\uE001';

/** Replaces each `$( … )` / backtick substitution that the shell would run by a placeholder. */
export function liftSubstitutions(line: string): { text: string; scripts: string[] } {
  const scripts: string[] = [];
  let text = '';
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (quote === "'") {
      text += ch;
      if (ch === "'") quote = null;
      continue;
    }
    if (ch === '\\' && i + 1 < line.length) {
      text += ch + (line[i + 1] as string);
      i += 1;
      continue;
    }
    // `#` inside a word is literal to the shell (`docker://nvcr.io#nvidia/…`); shell-quote would cut there.
    if (ch === '#' && quote === null && i > 0 && !/\s/.test(line[i - 1] as string)) {
      text += '\\#';
      continue;
    }
    if (ch === '"') quote = quote === '"' ? null : '"';
    else if (ch === "'" && quote === null) quote = "'";
    const arithmetic = line[i + 2] === '(';
    if (ch === '$' && line[i + 1] === '(' && !arithmetic) {
      let depth = 1;
      let j = i + 2;
      let inner: "'" | '"' | null = null;
      for (; j < line.length && depth > 0; j++) {
        const c = line[j] as string;
        if (inner) {
          if (c === inner) inner = null;
          continue;
        }
        if (c === "'" || c === '"') inner = c;
        else if (c === '(') depth += 1;
        else if (c === ')') depth -= 1;
      }
      scripts.push(line.slice(i + 2, depth === 0 ? j - 1 : j));
      text += `\uE000${scripts.length - 1}\uE000`;
      i = j - 1;
      continue;
    }
    // `--workers 1 > log` passes `1`; only `1>log` (no space) redirects descriptor 1. shell-quote loses the space, so mark the word.
    if (quote === null && /\d/.test(ch) && (i === 0 || /\s/.test(line[i - 1] as string)) && /^\s+(?:[<>]|&>)/.test(line.slice(i + 1, i + 12))) {
      text += ch + SPACED_DIGIT;
      continue;
    }
    if (ch === '`') {
      const end = line.indexOf('`', i + 1);
      if (end !== -1) {
        scripts.push(line.slice(i + 1, end));
        text += `\uE000${scripts.length - 1}\uE000`;
        i = end;
        continue;
      }
    }
    text += ch;
  }
  return { text, scripts };
}

/** Variables stay as written, inside their word (`vllm:$TAG`), instead of expanding to "". */
function keepVariable(name: string): string {
  return `$${name}`;
}

function isOp(entry: ParseEntry | undefined, op: string): boolean {
  return typeof entry === 'object' && entry !== null && 'op' in entry && entry.op === op;
}

function restore(value: string, scripts: readonly string[]): WordToken {
  const substitutions: string[] = [];
  const restored = value.replace(PLACEHOLDER, (_, index: string) => {
    const script = scripts[Number(index)] ?? '';
    if (script.trim() !== '') substitutions.push(script);
    return `$(${script})`;
  }).replaceAll(SPACED_DIGIT, '');
  return { kind: 'word', value: restored, substitutions };
}

export function tokenize(line: string): Token[] {
  const lifted = liftSubstitutions(line);
  let entries: ParseEntry[];
  try {
    entries = parse(lifted.text, keepVariable);
  } catch {
    // An unbalanced quote: fall back to whitespace words so the command still shows up.
    entries = lifted.text.split(/\s+/).filter(Boolean);
  }
  const tokens: Token[] = [];
  const spacedDigits = new Set<Token>();
  let lastWasWord = false;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as ParseEntry;
    if (typeof entry === 'string') {
      const word = restore(entry, lifted.scripts);
      if (entry.includes(SPACED_DIGIT)) spacedDigits.add(word);
      tokens.push(word);
      lastWasWord = true;
      continue;
    }
    if ('comment' in entry) continue;
    if (entry.op === 'glob') {
      tokens.push(restore((entry as { pattern: string }).pattern, lifted.scripts));
      lastWasWord = true;
      continue;
    }
    const last = tokens[tokens.length - 1];
    // `2>&1`, `2>/dev/null`: the digit belongs to the redirection, not to the command's words.
    if (/^(?:[<>]|&>)/.test(entry.op) && lastWasWord && last?.kind === 'word' && /^\d$/.test(last.value) && !spacedDigits.has(last)) {
      tokens.pop();
      tokens.push({ kind: 'op', op: `${last.value}${entry.op}` });
      lastWasWord = false;
      continue;
    }
    if (entry.op === '&' && isOp(entries[i + 1], '>')) {
      tokens.push({ kind: 'op', op: '&>' });
      i += 1;
      lastWasWord = false;
      continue;
    }
    tokens.push({ kind: 'op', op: entry.op });
    lastWasWord = false;
  }
  return tokens;
}

export function isRedirection(op: string): boolean {
  return /^\d?(?:<<<|<<-?|>>|>&|<&|&>|>\||<>|[<>])$/.test(op);
}
