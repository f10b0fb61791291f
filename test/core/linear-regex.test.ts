import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLinear, linearTest, PatternError } from '../../src/core/regex/linear-regex.js';

/** Small patterns of every construct the engine knows, written as JavaScript reads them. */
const pattern: fc.Arbitrary<string> = fc.letrec((tie) => ({
  atom: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'regex' },
    fc.constantFrom('a', 'b', '1', ' ', '.', '\\d', '\\w', '\\s', '\\S', '[ab]', '[^a]', '[a-c1]', '[\\d ]', '\\.', '\\n', '^', '$', '\\b', '\\B', 'x{'),
    tie('group').map((g) => g as string),
  ),
  group: fc.tuple(fc.constantFrom('(', '(?:', '(?<n>'), tie('alt')).map(([open, body]) => `${open}${body as string})`.replace('(?<n>', '(?:')),
  piece: fc.tuple(tie('atom'), fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?')).map(([atom, q]) => {
    const a = atom as string;
    return ['^', '$', '\\b', '\\B'].includes(a) ? a : `${a}${q}`;
  }),
  seq: fc.array(tie('piece'), { minLength: 0, maxLength: 4 }).map((parts) => (parts as string[]).join('')),
  alt: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((parts) => (parts as string[]).join('|')),
}))['alt'] as fc.Arbitrary<string>;

const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '1', ' ', '\n', '.', 'x', '{'), maxLength: 12 });

describe('the linear-time pattern engine', () => {
  it('answers as JavaScript does on every pattern both accept (2,000 generated pairs)', () => {
    fc.assert(
      fc.property(pattern, text, (source, input) => {
        let js: RegExp;
        try {
          js = new RegExp(source, 'm');
        } catch {
          return; // not a pattern at all: nothing to compare
        }
        expect(linearTest(source, input), `/${source}/ on ${JSON.stringify(input)}`).toBe(js.test(input));
      }),
      // A fixed seed: JavaScript itself, the oracle here, backtracks for minutes on some generated
      // pairs (one seed in four draws one, e.g. /(?:…(?:[\d ]*.+|…)+?)+\S?x{+?/ on 10 characters:
      // 15 s in V8, 10 ms in this engine), which made the suite hang at random.
      { numRuns: 2000, seed: 1 },
    );
  });

  it('answers a catastrophic pattern at once, where backtracking would run for minutes', () => {
    const input = `${'a'.repeat(35)}!`;
    expect(linearTest('^(a+)+$', input)).toBe(false);
    expect(linearTest('^(a|aa)*$', 'a'.repeat(5000))).toBe(true);
    expect(linearTest('(x+x+)+y', 'x'.repeat(10_000))).toBe(false);
  });

  it('matches what the plans write', () => {
    expect(linearTest('^Digest: sha256:[0-9a-f]{64}$', `x\nDigest: sha256:${'ab'.repeat(32)}\ny`)).toBe(true);
    expect(linearTest('^200$', 'x\n200\n')).toBe(true);
    expect(linearTest('^200$', '2000')).toBe(false);
    expect(linearTest('"id": *"Qwen/Qwen3\\.5-122B"', '"id":  "Qwen/Qwen3.5-122B"')).toBe(true);
    expect(linearTest('[0-9.]+/2\\.0 GPU', '0.0/2.0 GPU')).toBe(true);
  });

  it('refuses what needs backtracking, naming the position', () => {
    expect(() => compileLinear('(a)\\1')).toThrow(PatternError);
    expect(() => compileLinear('(a)\\1')).toThrow(/backreferences are not supported .* at position 3/);
    expect(() => compileLinear('foo(?=bar)')).toThrow(/lookahead and lookbehind .* at position 3/);
    expect(() => compileLinear('a**')).toThrow(/nothing to repeat/);
    expect(() => compileLinear('(ab')).toThrow(/unterminated group/);
  });
});
