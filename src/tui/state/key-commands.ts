import type { ListMove } from './list.js';

/** The parts of Ink's `Key` retrace reads (a structural subset, so tests can build one). */
export interface KeyInfo {
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  ctrl?: boolean;
  backspace?: boolean;
  delete?: boolean;
  tab?: boolean;
}

export type KeyCommand = ListMove | 'open' | 'back' | 'search' | 'next' | 'previous' | 'help' | 'quit' | 'left' | 'right';

/** The keys every screen shares: vi and less habits plus the arrows. */
export function commandOf(input: string, key: KeyInfo): KeyCommand | null {
  if (key.upArrow || (input === 'k' && !key.ctrl)) return 'up';
  if (key.downArrow || (input === 'j' && !key.ctrl)) return 'down';
  if (key.pageUp || (key.ctrl && (input === 'b' || input === 'u'))) return 'pageUp';
  if (key.pageDown || (key.ctrl && (input === 'f' || input === 'd')) || input === ' ') return 'pageDown';
  if (key.home || input === 'g') return 'top';
  if (key.end || input === 'G') return 'bottom';
  if (key.leftArrow || input === 'h') return 'left';
  if (key.rightArrow || input === 'l') return 'right';
  if (key.return) return 'open';
  if (key.escape) return 'back';
  if (input === '/') return 'search';
  if (input === 'n') return 'next';
  if (input === 'N') return 'previous';
  if (input === '?') return 'help';
  if (input === 'q') return 'quit';
  return null;
}

export function isListMove(command: KeyCommand | null): command is ListMove {
  return command === 'up' || command === 'down' || command === 'pageUp' || command === 'pageDown' || command === 'top' || command === 'bottom';
}

/** What a key does while the search prompt is open. */
export type PromptKey = { kind: 'submit' } | { kind: 'cancel' } | { kind: 'erase' } | { kind: 'type'; text: string } | { kind: 'ignore' };

export function promptKeyOf(input: string, key: KeyInfo): PromptKey {
  if (key.return) return { kind: 'submit' };
  if (key.escape) return { kind: 'cancel' };
  if (key.backspace || key.delete) return { kind: 'erase' };
  if (key.ctrl || key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || input === '') return { kind: 'ignore' };
  return { kind: 'type', text: input };
}

export interface KeyPress {
  input: string;
  key: KeyInfo;
}

/** One character of a run of typed text as the key press it stands for. */
function pressOf(char: string): KeyPress {
  if (char === '\r' || char === '\n') return { input: '', key: { return: true } };
  if (char === '\x7f' || char === '\b') return { input: '', key: { backspace: true } };
  if (char === '\t') return { input: '', key: { tab: true } };
  const code = char.codePointAt(0) ?? 0;
  if (code > 0 && code < 27) return { input: String.fromCharCode(code + 96), key: { ctrl: true } };
  return { input: char, key: {} };
}

/**
 * Keys typed faster than the terminal is read (or pasted) reach Ink as one string (`jjj⏎`):
 * each character becomes its own key press. Escape sequences and modified keys stay whole.
 */
export function splitPresses(input: string, key: KeyInfo & { meta?: boolean }): KeyPress[] {
  const special = key.ctrl || key.meta || key.escape || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown;
  if ([...input].length <= 1 || special || input.includes('\x1b')) return [{ input, key }];
  return [...input].map(pressOf);
}

/** A press that only types a character (no Enter, Esc, arrows, Ctrl): part of a run of text. */
export function isTypedCharacter(press: KeyPress): boolean {
  const { key } = press;
  if (Object.values(key).some(Boolean) || [...press.input].length !== 1) return false;
  const code = press.input.codePointAt(0) ?? 0;
  return code >= 32 && code !== 127;
}

/** How many presses at the head of `presses` are typed characters, and their text. */
export function leadingText(presses: readonly KeyPress[]): { count: number; text: string } {
  let count = 0;
  while (count < presses.length && isTypedCharacter(presses[count] as KeyPress)) count += 1;
  return { count, text: presses.slice(0, count).map((press) => press.input).join('') };
}
