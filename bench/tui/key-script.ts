/**
 * The 500 keys the TUI figure types on a session's timeline: stepping, paging, jumping to the
 * end and back, opening a row's text and closing it, and searching (the search runs in SQL). Every key changes the
 * screen, so each one is answered by a frame.
 */
const DOWN = 'j';
const UP = 'k';
const PAGE_DOWN = '\u001B[6~';
const PAGE_UP = '\u001B[5~';
const ENTER = '\r';
const ESCAPE = '\u001B';

export interface ScriptKey {
  key: string;
  /** What it does, for the per-kind breakdown. */
  kind: 'step' | 'page' | 'jump' | 'open' | 'close' | 'search-type' | 'search-next';
}

function cycle(): ScriptKey[] {
  const keys: ScriptKey[] = [];
  const add = (key: string, kind: ScriptKey['kind'], times = 1): void => {
    for (let i = 0; i < times; i += 1) keys.push({ key, kind });
  };
  add(DOWN, 'step', 15);
  add(PAGE_DOWN, 'page', 3);
  add(UP, 'step', 5);
  add(PAGE_UP, 'page', 1);
  add('G', 'jump');
  add(UP, 'step', 3);
  add('g', 'jump');
  add(DOWN, 'step', 2);
  add(ENTER, 'open');
  add(ESCAPE, 'close');
  add('/', 'search-type');
  for (const letter of 'pull') add(letter, 'search-type');
  add(ENTER, 'search-type');
  add('n', 'search-next', 2);
  add('g', 'jump');
  return keys;
}

export function keyScript(count: number): ScriptKey[] {
  const keys: ScriptKey[] = [];
  while (keys.length < count) keys.push(...cycle());
  return keys.slice(0, count);
}
