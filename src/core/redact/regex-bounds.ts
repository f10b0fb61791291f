/**
 * How long a match of a regular expression can be, read from its source. Redaction runs each rule
 * only in a window around the rule's keywords, as wide as the rule's longest match: every rule
 * must therefore be bounded (no `*`, `+` or `{n,}`), and the work per text stays linear in its
 * length. Covers the syntax the rules use: literals, escapes, classes, groups and lookarounds,
 * alternation, bounded quantifiers and back-references.
 */

export interface RegexBounds {
  /** Longest possible match, in UTF-16 units; Infinity when a quantifier is unbounded. */
  maxLength: number;
  /** Longest lookbehind: how much text before a match the expression may read. */
  maxLookbehind: number;
  /** Longest lookahead: how much text after a match it may read. */
  maxLookahead: number;
}

interface Parsed {
  max: number;
  /** Whether this piece repeats a variable number of times somewhere (used to reject repeats of repeats). */
  repeats: boolean;
}

class Reader {
  pos = 0;
  readonly groupMax: number[] = [];
  lookbehind = 0;
  lookahead = 0;
  constructor(readonly source: string) {}

  fail(why: string): never {
    throw new Error(`regex bounds: ${why} at ${this.pos} in /${this.source}/`);
  }

  /** alternation := sequence ('|' sequence)* */
  alternation(): Parsed {
    let best = this.sequence();
    while (this.source[this.pos] === '|') {
      this.pos += 1;
      const next = this.sequence();
      best = { max: Math.max(best.max, next.max), repeats: best.repeats || next.repeats };
    }
    return best;
  }

  private sequence(): Parsed {
    let max = 0;
    let repeats = false;
    while (this.pos < this.source.length && this.source[this.pos] !== '|' && this.source[this.pos] !== ')') {
      const atom = this.atom();
      const quantified = this.quantifier(atom);
      max += quantified.max;
      repeats ||= quantified.repeats;
    }
    return { max, repeats };
  }

  private atom(): Parsed {
    const c = this.source[this.pos] as string;
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '\\') return this.escape();
    if (c === '^' || c === '$') {
      this.pos += 1;
      return { max: 0, repeats: false };
    }
    this.pos += 1;
    return { max: 1, repeats: false };
  }

  private group(): Parsed {
    const rest = this.source.slice(this.pos, this.pos + 4);
    let kind: 'capture' | 'plain' | 'ahead' | 'behind' = 'capture';
    if (rest.startsWith('(?:')) kind = 'plain';
    else if (rest.startsWith('(?=') || rest.startsWith('(?!')) kind = 'ahead';
    else if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) kind = 'behind';
    else if (rest.startsWith('(?<')) kind = 'capture';
    else if (rest.startsWith('(?')) this.fail('unsupported group');
    const index = kind === 'capture' ? this.groupMax.push(0) - 1 : -1;
    if (rest.startsWith('(?<') && kind === 'capture') {
      const close = this.source.indexOf('>', this.pos);
      this.pos = close + 1;
    } else {
      this.pos += kind === 'capture' ? 1 : kind === 'behind' ? 4 : 3;
    }
    const inner = this.alternation();
    if (this.source[this.pos] !== ')') this.fail('unclosed group');
    this.pos += 1;
    if (index >= 0) this.groupMax[index] = inner.max;
    if (kind === 'behind') this.lookbehind = Math.max(this.lookbehind, inner.max);
    if (kind === 'ahead') this.lookahead = Math.max(this.lookahead, inner.max);
    if (kind === 'ahead' || kind === 'behind') {
      if (!Number.isFinite(inner.max)) this.fail('unbounded lookaround');
      return { max: 0, repeats: false };
    }
    return inner;
  }

  private charClass(): Parsed {
    this.pos += 1;
    if (this.source[this.pos] === '^') this.pos += 1;
    if (this.source[this.pos] === ']') this.pos += 1;
    while (this.pos < this.source.length && this.source[this.pos] !== ']') {
      this.pos += this.source[this.pos] === '\\' ? 2 : 1;
    }
    if (this.source[this.pos] !== ']') this.fail('unclosed class');
    this.pos += 1;
    return { max: 1, repeats: false };
  }

  private escape(): Parsed {
    const next = this.source[this.pos + 1] ?? '';
    this.pos += 2;
    if (next === 'b' || next === 'B') return { max: 0, repeats: false };
    if (/[1-9]/.test(next)) {
      const index = Number(next) - 1;
      return { max: this.groupMax[index] ?? Infinity, repeats: false };
    }
    if (next === 'x') this.pos += 2;
    if (next === 'u') this.pos += this.source[this.pos] === '{' ? this.source.indexOf('}', this.pos) - this.pos + 1 : 4;
    if (next === 'p' || next === 'P') this.pos = this.source.indexOf('}', this.pos) + 1;
    return { max: 1, repeats: false };
  }

  private quantifier(atom: Parsed): Parsed {
    const c = this.source[this.pos];
    let low = 1;
    let high = 1;
    if (c === '*' || c === '+') this.fail('unbounded quantifier');
    if (c === '?') {
      low = 0;
      this.pos += 1;
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.pos));
      if (!m) return atom;
      if (m[2] !== undefined && (m[3] ?? '') === '') this.fail('unbounded quantifier');
      low = Number(m[1]);
      high = m[3] !== undefined ? Number(m[3]) : low;
      this.pos += m[0].length;
    } else {
      return atom;
    }
    if (this.source[this.pos] === '?') this.pos += 1;
    // A repeat of a repeat (`(a{1,9}){1,9}`) can backtrack in many ways: rules may not have one.
    if (atom.repeats && high > 1) this.fail('a repeated group that itself repeats');
    return { max: atom.max * high, repeats: atom.repeats || high !== low };
  }
}

export function regexBounds(source: string): RegexBounds {
  const reader = new Reader(source);
  const parsed = reader.alternation();
  if (reader.pos !== source.length) reader.fail('unbalanced )');
  return { maxLength: parsed.max, maxLookbehind: reader.lookbehind, maxLookahead: reader.lookahead };
}
