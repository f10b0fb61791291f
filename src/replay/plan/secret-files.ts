import { leavesOf } from './leaves.js';
import { redirectTargets } from './lookups.js';
import { pathWord } from './file-steps.js';

/**
 * A step that makes a new secret and writes it into a file (a `sed -i` whose replacement is
 * `KEY=$(openssl rand -hex 32)`, `echo "KEY=$(openssl rand …)" >> .env`): run again, it would replace the
 * secret the machine already has (and whatever used it: sessions, stored logins, encrypted data).
 * Its guard: every such file is there and holds each key with a value, so the step leaves it
 * alone. Pure.
 */

/** What makes a fresh random value in a command line. */
const GENERATOR = /\$\(\s*(?:openssl\s+rand\b|head\s+-c\s*\d+\s+\/dev\/u?random|uuidgen\b|pwgen\b|python3?\s+-c\s+['"][^'"]*\bsecrets\.token_|tr\s+-dc\b[^)]*\/dev\/u?random|od\s[^)]*\/dev\/u?random)/;
const GENERATOR_HERE = new RegExp(`^${GENERATOR.source}`);
/** `KEY=$(generator …)` inside a word: the key a secret is written under. */
const KEY_BEFORE_GENERATOR = /(?:^|[^A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)=\$\(/g;

export interface SecretFile {
  path: string;
  keys: string[];
}

function keysIn(word: string): string[] {
  if (!GENERATOR.test(word)) return [];
  return [...word.matchAll(KEY_BEFORE_GENERATOR)].filter((m) => GENERATOR_HERE.test(word.slice((m.index ?? 0) + m[0].length - 2))).map((m) => m[1] as string);
}

/** The files a command writes generated secrets into, with their keys. */
export function secretFiles(command: string): SecretFile[] {
  if (!GENERATOR.test(command)) return [];
  const found = new Map<string, Set<string>>();
  const add = (path: string, keys: readonly string[]): void => {
    if (keys.length === 0) return;
    const set = found.get(path) ?? new Set<string>();
    for (const key of keys) set.add(key);
    found.set(path, set);
  };
  // Keys printed into a pipe (`echo "K=$(openssl rand …)" | sudo tee -a .env`) land in the tee's files.
  let piped: string[] = [];
  for (const { command: leaf } of leavesOf(command, null)) {
    const keys = leaf.argv.slice(1).flatMap(keysIn);
    if (leaf.program === 'tee') {
      for (const file of leaf.argv.slice(1).filter((w) => !w.startsWith('-'))) add(file, [...piped, ...keys]);
      piped = [];
      continue;
    }
    piped = [];
    if (keys.length === 0) continue;
    if (leaf.program === 'sed' && leaf.argv.some((w) => /^-[a-zA-Z]*i/.test(w) || w.startsWith('--in-place'))) {
      const files = leaf.argv.slice(1).filter((w, i, all) => !w.startsWith('-') && !keysIn(w).length && !(all[i - 1] === '-e' || all[i - 1] === '-f'));
      for (const file of files) add(file, keys);
    } else if (redirectTargets(leaf).length > 0) {
      for (const file of redirectTargets(leaf)) add(file, keys);
    } else {
      piped = keys;
    }
  }
  return [...found.entries()].map(([path, keys]) => ({ path, keys: [...keys] }));
}

/** Whether the command replaces one of these files whole first (`cp .env.example .env`, `> .env`). */
export function overwritesSecretFile(command: string, files: readonly SecretFile[]): boolean {
  const paths = new Set(files.map((f) => f.path));
  return leavesOf(command, null).some(({ command: leaf }) => {
    if (/^(?:cp|mv|install)$/.test(leaf.program)) return paths.has(leaf.argv.filter((w, i) => i > 0 && !w.startsWith('-')).at(-1) ?? '');
    return leaf.redirects.some((r) => (r.op === '>' || r.op === '>|') && paths.has(r.target));
  });
}

/** `[ -f .env ] && grep -q '^KEY=.' .env && …`: true where every secret is already there. */
export function secretFilesGuard(files: readonly SecretFile[]): string | null {
  if (files.length === 0) return null;
  return files.map(({ path, keys }) => {
    const word = pathWord(path);
    return [`[ -f ${word} ]`, ...keys.map((key) => `grep -q '^${key}=.' ${word}`)].join(' && ');
  }).join(' && ');
}
