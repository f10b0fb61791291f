/**
 * A regular-expression test that runs in time linear in the text (RE2 semantics): the pattern is
 * compiled to a Thompson NFA and simulated with a set of states per character, so no pattern can
 * backtrack catastrophically (`^(a+)+$` against 35 characters answers at once, where V8's engine
 * runs for minutes and cannot be interrupted). JavaScript syntax, without what needs
 * backtracking: backreferences and lookaround are refused with their position. Only "does it
 * match anywhere?" is answered, which is all an `expect.output` needs. `^` and `$` are line
 * anchors, as the plans' patterns are (flag `m`).
 */

import { isLineBreak, isWord, Parser, PatternError, type Assertion, type CharTest, type Node } from './pattern-syntax.js';

export { PatternError } from './pattern-syntax.js';

/** Counted repetitions are expanded: bound the NFA a pattern may become. */
const MAX_STATES = 20_000;

type State =
  | { kind: 'char'; test: CharTest; next: number }
  | { kind: 'assert'; what: Assertion; next: number }
  | { kind: 'split'; next: number; other: number }
  | { kind: 'match' };

class Compiler {
  readonly states: State[] = [];

  constructor(private readonly source: string) {}

  private add(state: State): number {
    if (this.states.length >= MAX_STATES) throw new PatternError(`/${this.source}/ is too large (counted repetitions expand past ${MAX_STATES} states)`, 0);
    this.states.push(state);
    return this.states.length - 1;
  }

  /** Compiles `node` so that it continues at `next`; returns its entry state. */
  compile(node: Node, next: number): number {
    switch (node.kind) {
      case 'char':
        return this.add({ kind: 'char', test: node.test, next });
      case 'assert':
        return this.add({ kind: 'assert', what: node.what, next });
      case 'seq': {
        let entry = next;
        for (let i = node.items.length - 1; i >= 0; i -= 1) entry = this.compile(node.items[i] as Node, entry);
        return entry;
      }
      case 'alt': {
        let entry = this.compile(node.options[node.options.length - 1] as Node, next);
        for (let i = node.options.length - 2; i >= 0; i -= 1) {
          const option = this.compile(node.options[i] as Node, next);
          entry = this.add({ kind: 'split', next: option, other: entry });
        }
        return entry;
      }
      case 'repeat': {
        let entry = next;
        if (node.max === Infinity) {
          // A loop: split → body → back to the split; the split's other way goes on.
          const split = this.add({ kind: 'split', next: -1, other: next });
          const body = this.compile(node.node, split);
          (this.states[split] as { next: number }).next = body;
          entry = split;
        } else {
          for (let i = node.min; i < node.max; i += 1) {
            const body = this.compile(node.node, entry);
            entry = this.add({ kind: 'split', next: body, other: next });
          }
        }
        for (let i = 0; i < node.min; i += 1) entry = this.compile(node.node, entry);
        return entry;
      }
    }
  }
}

export interface LinearRegex {
  readonly source: string;
  test(text: string): boolean;
}

function assertionHolds(what: Assertion, text: string, at: number): boolean {
  const before = at > 0 ? text.charCodeAt(at - 1) : -1;
  const after = at < text.length ? text.charCodeAt(at) : -1;
  switch (what) {
    case 'line-start':
      return before === -1 || isLineBreak(before);
    case 'line-end':
      return after === -1 || isLineBreak(after);
    case 'word':
    case 'not-word': {
      const boundary = (before !== -1 && isWord(before)) !== (after !== -1 && isWord(after));
      return what === 'word' ? boundary : !boundary;
    }
  }
}

/** Compiles a pattern once; throws PatternError (with the position) for what cannot run in linear time. */
export function compileLinear(source: string): LinearRegex {
  const tree = new Parser(source).parse();
  const compiler = new Compiler(source);
  const matchState = compiler.states.length;
  compiler.states.push({ kind: 'match' });
  const start = compiler.compile(tree, matchState);
  const states = compiler.states;
  const size = states.length;

  return {
    source,
    test(text: string): boolean {
      // Two generations of the state set; `seen` marks a state added at this position.
      let current = new Int32Array(size);
      let next = new Int32Array(size);
      let currentCount = 0;
      let nextCount = 0;
      const seen = new Int32Array(size).fill(-1);
      const stack = new Int32Array(size * 2 + 2);

      /** Adds `state` and everything reachable from it without reading a character. */
      const close = (from: number, at: number, into: Int32Array, count: number): { count: number; matched: boolean } => {
        let top = 0;
        stack[top++] = from;
        let matched = false;
        while (top > 0) {
          const id = stack[--top] as number;
          if (seen[id] === at) continue;
          seen[id] = at;
          const state = states[id] as State;
          switch (state.kind) {
            case 'match':
              matched = true;
              break;
            case 'char':
              into[count++] = id;
              break;
            case 'assert':
              if (assertionHolds(state.what, text, at)) stack[top++] = state.next;
              break;
            case 'split':
              stack[top++] = state.other;
              stack[top++] = state.next;
              break;
          }
        }
        return { count, matched };
      };

      for (let at = 0; at <= text.length; at += 1) {
        // Unanchored search: a new thread may start at every position.
        const started = close(start, at, current, currentCount);
        currentCount = started.count;
        if (started.matched) return true;
        if (at === text.length) break;
        const code = text.charCodeAt(at);
        nextCount = 0;
        for (let i = 0; i < currentCount; i += 1) {
          const state = states[current[i] as number] as Extract<State, { kind: 'char' }>;
          if (state.test(code)) {
            const reached = close(state.next, at + 1, next, nextCount);
            nextCount = reached.count;
            if (reached.matched) return true;
          }
        }
        [current, next] = [next, current];
        currentCount = nextCount;
      }
      return false;
    },
  };
}

const cache = new Map<string, LinearRegex>();

/** Compiled patterns are kept: polls and guards test the same few again and again. */
export function linearTest(pattern: string, text: string): boolean {
  let compiled = cache.get(pattern);
  if (!compiled) {
    compiled = compileLinear(pattern);
    if (cache.size > 500) cache.clear();
    cache.set(pattern, compiled);
  }
  return compiled.test(text);
}
