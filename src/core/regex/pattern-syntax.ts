/**
 * The syntax half of the linear-time regex (linear-regex.ts): JavaScript pattern syntax parsed into
 * a tree of characters, assertions, sequences, alternatives and repetitions. What needs
 * backtracking (backreferences, lookaround) is refused with its position.
 */

export class PatternError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'PatternError';
  }
}

export type CharTest = (code: number) => boolean;
export type Assertion = 'line-start' | 'line-end' | 'word' | 'not-word';

export type Node =
  | { kind: 'char'; test: CharTest }
  | { kind: 'assert'; what: Assertion }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

const isDigit: CharTest = (c) => c >= 48 && c <= 57;
export const isWord: CharTest = (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const SPACES = new Set([9, 10, 11, 12, 13, 32, 160, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);
const isSpace: CharTest = (c) => SPACES.has(c) || (c >= 0x2000 && c <= 0x200a);
export const isLineBreak: CharTest = (c) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
const not = (test: CharTest): CharTest => (c) => !test(c);

export class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.source.length) throw this.error(`unmatched ")"`);
    return node;
  }

  private error(message: string, position = this.at): PatternError {
    return new PatternError(`${message} at position ${position} of /${this.source}/`, position);
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.at + offset];
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.at += 1;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as Node) : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      const start = this.at;
      const atom = this.atom();
      items.push(this.quantified(atom, start));
    }
    return { kind: 'seq', items };
  }

  private quantified(atom: Node, start: number): Node {
    const ch = this.peek();
    let min: number;
    let max: number;
    if (ch === '*') [min, max] = [0, Infinity];
    else if (ch === '+') [min, max] = [1, Infinity];
    else if (ch === '?') [min, max] = [0, 1];
    else if (ch === '{') {
      const counted = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (!counted) return atom; // a literal `{`, as JavaScript reads it outside `u` mode
      min = Number(counted[1]);
      max = counted[2] === undefined ? min : counted[3] === '' ? Infinity : Number(counted[3]);
      if (max < min) throw this.error('numbers out of order in {} quantifier');
      this.at += counted[0].length - 1;
    } else return atom;
    if (atom.kind === 'assert') throw this.error('nothing to repeat', start);
    this.at += 1;
    if (this.peek() === '?') this.at += 1; // lazy or greedy: the same answer to "does it match?"
    if (this.peek() === '*' || this.peek() === '+' || this.peek() === '?') throw this.error('nothing to repeat');
    return { kind: 'repeat', node: atom, min, max };
  }

  private atom(): Node {
    const ch = this.peek() as string;
    switch (ch) {
      case '(':
        return this.group();
      case '[':
        return this.charClass();
      case '.':
        this.at += 1;
        return { kind: 'char', test: not(isLineBreak) };
      case '^':
        this.at += 1;
        return { kind: 'assert', what: 'line-start' };
      case '$':
        this.at += 1;
        return { kind: 'assert', what: 'line-end' };
      case '\\':
        return this.escapeNode();
      case '*':
      case '+':
      case '?':
        throw this.error('nothing to repeat');
      default:
        // Code units, as JavaScript matches without the `u` flag.
        this.at += 1;
        return literal(ch.charCodeAt(0));
    }
  }

  private group(): Node {
    const start = this.at;
    this.at += 1;
    if (this.peek() === '?') {
      const kind = this.peek(1);
      if (kind === ':') this.at += 2;
      else if (kind === '<' && this.peek(2) !== '=' && this.peek(2) !== '!') {
        const name = /^\?<[A-Za-z_$][\w$]*>/.exec(this.source.slice(this.at));
        if (!name) throw this.error('invalid group name', start);
        this.at += name[0].length;
      } else throw this.error('lookahead and lookbehind are not supported (patterns run in linear time, RE2 semantics)', start);
    }
    const body = this.alternation();
    if (this.peek() !== ')') throw this.error('unterminated group', start);
    this.at += 1;
    return body;
  }

  /**
   * `\d`, `\n`, `\.`, …: a class of characters, one character (a code, which may bound a range
   * inside a class), or an assertion (`\b`, `\B`; inside a class `\b` is a backspace).
   */
  private escape(inClass: boolean): CharTest | number | Assertion {
    const start = this.at;
    this.at += 1;
    const ch = this.peek();
    if (ch === undefined) throw this.error('\\ at end of pattern', start);
    this.at += 1;
    switch (ch) {
      case 'd':
        return isDigit;
      case 'D':
        return not(isDigit);
      case 'w':
        return isWord;
      case 'W':
        return not(isWord);
      case 's':
        return isSpace;
      case 'S':
        return not(isSpace);
      case 'b':
        return inClass ? 8 : 'word';
      case 'B':
        if (inClass) throw this.error('\\B inside a class', start);
        return 'not-word';
      case 'n':
        return 10;
      case 'r':
        return 13;
      case 't':
        return 9;
      case 'f':
        return 12;
      case 'v':
        return 11;
      case '0':
        return 0;
      case 'x':
      case 'u': {
        const digits = ch === 'x' ? 2 : 4;
        const hex = this.source.slice(this.at, this.at + digits);
        if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) return ch.charCodeAt(0); // `\x` without digits is the letter
        this.at += digits;
        return parseInt(hex, 16);
      }
      case 'c': {
        const letter = this.peek();
        if (letter && /[A-Za-z]/.test(letter)) {
          this.at += 1;
          return letter.charCodeAt(0) % 32;
        }
        throw this.error('\\c without a control letter', start);
      }
      default:
        if (/[1-9]/.test(ch) || (ch === 'k' && this.peek() === '<')) {
          throw this.error('backreferences are not supported (patterns run in linear time, RE2 semantics)', start);
        }
        return ch.charCodeAt(0);
    }
  }

  private escapeNode(): Node {
    const found = this.escape(false);
    if (typeof found === 'number') return literal(found);
    if (typeof found === 'string') return { kind: 'assert', what: found };
    return { kind: 'char', test: found };
  }

  private charClass(): Node {
    const start = this.at;
    this.at += 1;
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.at += 1;
    }
    const tests: CharTest[] = [];
    while (this.peek() !== ']') {
      if (this.at >= this.source.length) throw this.error('unterminated character class', start);
      const low = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined && typeof low === 'number') {
        this.at += 1;
        const high = this.classAtom();
        if (typeof high !== 'number') throw this.error('invalid range in character class');
        if (high < low) throw this.error('range out of order in character class');
        tests.push((c) => c >= low && c <= high);
      } else tests.push(typeof low === 'number' ? (c) => c === low : low);
    }
    this.at += 1;
    const inClass: CharTest = (c) => tests.some((t) => t(c));
    return { kind: 'char', test: negated ? not(inClass) : inClass };
  }

  /** One member of a class: a code unit (which may start a range) or a class escape like `\d`. */
  private classAtom(): number | CharTest {
    if (this.peek() === '\\') return this.escape(true) as number | CharTest;
    const code = this.source.charCodeAt(this.at);
    this.at += 1;
    return code;
  }
}

function literal(code: number): Node {
  return { kind: 'char', test: (c) => c === code };
}

// ---- the NFA
