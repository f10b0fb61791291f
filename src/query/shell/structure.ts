import { isRedirection, type Token, type WordToken } from './tokens.js';

/**
 * The grammar retrace needs from a line of shell: lists joined by `&&` `||` `;` `&`, pipelines,
 * subshells and brace groups, simple commands with their redirections. Control keywords (`if`,
 * `do`, `done`…) are dropped so the commands inside loops and conditions still come through.
 */
export interface Redirect {
  op: string;
  target: string;
}

export interface SimpleNode {
  type: 'simple';
  words: WordToken[];
  redirects: Redirect[];
  /** `for x in …` / `case …`: runs nothing itself, only the substitutions in its words. */
  declaration?: boolean;
}

export interface GroupNode {
  type: 'group';
  subshell: boolean;
  body: ListNode;
  redirects: Redirect[];
}

export type CommandNode = SimpleNode | GroupNode;

export interface PipelineNode {
  commands: CommandNode[];
}

export interface ListItem {
  pipeline: PipelineNode;
  /** The operator that joined this item to the previous one (null for the first). */
  connector: string | null;
  /** Ended by `&`: started in the background. */
  background: boolean;
}

export interface ListNode {
  items: ListItem[];
}

const LEADING_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', 'function']);
const CLOSING_KEYWORDS = new Set(['fi', 'done', 'esac', '}']);
const LIST_OPERATORS = new Set(['&&', '||', ';', '&', ';;']);
const PIPE_OPERATORS = new Set(['|', '|&']);
/**
 * Subshells and brace groups nested deeper than this are read as if their parentheses were not
 * there: the commands inside still come through, and a hostile `((((…))))` of any depth cannot
 * overflow the stack of this recursive-descent parser or of the walks over its tree.
 */
const MAX_GROUP_DEPTH = 64;

class Parser {
  private position = 0;
  private groupDepth = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private isWord(value: string): boolean {
    const token = this.peek();
    return token?.kind === 'word' && token.value === value;
  }

  private isOp(op: string): boolean {
    const token = this.peek();
    return token?.kind === 'op' && token.op === op;
  }

  list(closing: string | null): ListNode {
    const items: ListItem[] = [];
    let connector: string | null = null;
    while (this.position < this.tokens.length) {
      if (closing === ')' && this.isOp(')')) break;
      if (closing === '}' && this.isWord('}')) break;
      const token = this.peek() as Token;
      if (token.kind === 'op' && LIST_OPERATORS.has(token.op)) {
        if (token.op === '&' && items.length > 0) (items[items.length - 1] as ListItem).background = true;
        connector = token.op;
        this.position += 1;
        continue;
      }
      const pipeline = this.pipeline(closing);
      if (pipeline.commands.length > 0) items.push({ pipeline, connector, background: false });
      connector = null;
    }
    return { items };
  }

  private pipeline(closing: string | null): PipelineNode {
    const commands: CommandNode[] = [];
    while (this.position < this.tokens.length) {
      const command = this.command(closing);
      if (command) commands.push(command);
      const token = this.peek();
      if (token?.kind === 'op' && PIPE_OPERATORS.has(token.op)) {
        this.position += 1;
        continue;
      }
      break;
    }
    return { commands };
  }

  private redirects(): Redirect[] {
    const found: Redirect[] = [];
    for (;;) {
      const token = this.peek();
      if (token?.kind !== 'op' || !isRedirection(token.op)) return found;
      this.position += 1;
      const target = this.peek();
      if (target?.kind === 'word') {
        found.push({ op: token.op, target: target.value });
        this.position += 1;
      } else {
        found.push({ op: token.op, target: '' });
      }
    }
  }

  private command(closing: string | null): CommandNode | null {
    const subshell = this.isOp('(');
    if (subshell || this.isWord('{')) {
      this.position += 1;
      if (this.groupDepth >= MAX_GROUP_DEPTH) return this.simple(closing);
      this.groupDepth += 1;
      const body = this.list(subshell ? ')' : '}');
      this.groupDepth -= 1;
      if (subshell ? this.isOp(')') : this.isWord('}')) this.position += 1;
      return { type: 'group', subshell, body, redirects: this.redirects() };
    }
    return this.simple(closing);
  }

  private simple(closing: string | null): SimpleNode | null {
    const words: WordToken[] = [];
    const redirects: Redirect[] = [];
    while (this.position < this.tokens.length) {
      const token = this.peek() as Token;
      if (token.kind === 'op') {
        if (isRedirection(token.op)) {
          redirects.push(...this.redirects());
          continue;
        }
        if (token.op === '(' && words.length === 0) break;
        if (token.op === '(' || token.op === ')' || token.op === '<(') {
          // A stray parenthesis (function definitions, process substitution): skip it, keep the words.
          if (token.op === ')' && closing === ')') break;
          this.position += 1;
          continue;
        }
        break;
      }
      if (closing === '}' && token.value === '}' && words.length === 0) break;
      words.push(token);
      this.position += 1;
    }
    while (words.length > 0 && LEADING_KEYWORDS.has((words[0] as WordToken).value)) words.shift();
    if (words.length > 0 && CLOSING_KEYWORDS.has((words[0] as WordToken).value)) words.shift();
    const first = words[0]?.value;
    // `for x in a b c` / `case $x in` / `select …` declare, they do not run anything themselves.
    if (first === 'for' || first === 'case' || first === 'select' || first === 'in' || /^[\w-]+\)$/.test(first ?? '')) {
      return words.some((w) => w.substitutions.length > 0) ? { type: 'simple', words, redirects, declaration: true } : null;
    }
    if (words.length === 0 && redirects.length === 0) return null;
    return { type: 'simple', words, redirects };
  }
}

export function parseTokens(tokens: readonly Token[]): ListNode {
  return new Parser(tokens).list(null);
}
