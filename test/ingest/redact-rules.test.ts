import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SECRET_RULES } from '../../src/core/redact/patterns.js';
import { findSecrets, kindOf, redactText, type ScanStats } from '../../src/core/redact/redact.js';
import { regexBounds } from '../../src/core/redact/regex-bounds.js';
import { NOT_SECRETS, SECRET_SHAPES } from '../fixtures/secrets/shapes.js';

/** Every rule carries examples that must lose their secret and counter-examples that must stay. */
describe('redaction rules: data in the gitleaks shape, each with its examples', () => {
  it('has an id, a description, keywords, a bounded expression and an example, for every rule', () => {
    expect(SECRET_RULES.length).toBeGreaterThanOrEqual(80);
    for (const rule of SECRET_RULES) {
      expect(rule.id, rule.description).toMatch(/^[a-z0-9-]+$/);
      expect(rule.description.length, rule.id).toBeGreaterThan(10);
      expect(rule.keywords.length, rule.id).toBeGreaterThan(0);
      expect(Number.isFinite(regexBounds(rule.regex).maxLength), rule.id).toBe(true);
      expect(rule.examples.length, rule.id).toBeGreaterThan(0);
    }
  });

  for (const rule of SECRET_RULES) {
    it(`${rule.id}: ${rule.description.slice(0, 60)}`, () => {
      for (const example of rule.examples) {
        const spans = findSecrets(example.text);
        const out = redactText(example.text, {});
        expect(out, example.text).not.toContain(example.secret);
        // The secret is removed by a span of this very rule or one listed before it (a vendor shape).
        const at = example.text.indexOf(example.secret);
        const covering = spans.find((span) => span.start <= at && span.end >= at + example.secret.length);
        expect(covering, example.text).toBeDefined();
        expect(SECRET_RULES.findIndex((r) => r === rule) >= (covering?.rule ?? Infinity) || kindOf(covering ?? { start: 0, end: 0, rule: -1 }) === rule.id, example.text).toBe(true);
      }
      for (const text of rule.counterExamples ?? []) expect(redactText(text, {}), text).toBe(text);
    });
  }
});

describe('regexBounds: the longest match of an expression', () => {
  it('reads bounded quantifiers, groups, classes, alternation and back-references', () => {
    expect(regexBounds('a{1,5}').maxLength).toBe(5);
    expect(regexBounds('(?:ab|c){2}[x-z]?').maxLength).toBe(5);
    expect(regexBounds('(["\'])x\\1').maxLength).toBe(3);
    expect(regexBounds('(?<=ab)c(?=d{3})').maxLookbehind).toBe(2);
    expect(regexBounds('(?<=ab)c(?=d{3})').maxLookahead).toBe(3);
    expect(regexBounds('(?<=ab)c(?=d{3})').maxLength).toBe(1);
  });

  it('refuses unbounded quantifiers and repeats of repeats', () => {
    expect(() => regexBounds('a*')).toThrow(/unbounded/);
    expect(() => regexBounds('a+')).toThrow(/unbounded/);
    expect(() => regexBounds('a{2,}')).toThrow(/unbounded/);
    expect(() => regexBounds('(?:a{1,3}){2}')).toThrow(/repeats/);
    expect(regexBounds('(?:a{3}){2}').maxLength).toBe(6);
  });
});

function stats(text: string): ScanStats {
  const s: ScanStats = { keywordHits: 0, windows: 0, scannedChars: 0 };
  findSecrets(text, s);
  return s;
}

describe('redaction work is linear in the text length', () => {
  // Each unit is a rule's keyword or the start of its match, repeated: the worst case for a
  // backtracking engine that rescans from every match.
  const units = ['curl -u ', 'curl -s http://10.0.0.1/x -H "Accept: json" ; ', 'password=', '"password": "', 'https://a:b', 'key: ', 'mysql -p',
    '-----BEGIN PRIVATE KEY-----', 'data:\n', 'machine x ', '\\"password\\":\\"', '\x1b[31mpassword\x1b[0m=', 'token ', 'docker login -p ', 'Bearer '];
  for (const unit of units) {
    it(`scans ${JSON.stringify(unit)} × n in work proportional to n`, () => {
      const small = stats(unit.repeat(2_000));
      const large = stats(unit.repeat(8_000));
      // Four times the text: at most four times the characters scanned (plus the edges of windows).
      expect(large.scannedChars).toBeLessThanOrEqual(4 * small.scannedChars + 200_000);
      // Each character is scanned by a bounded number of rules and views, never once per match.
      expect(large.scannedChars / (unit.length * 8_000)).toBeLessThan(40);
    });
  }

  it('finds the secret after 45,832 curl commands on one 6 MB line, scanning each character a bounded number of times', () => {
    const line = `${Array.from({ length: 45_832 }, (_, i) => `curl -s http://10.0.${i % 250}.1:8000/v1/models -H "Accept: application/json" -H "User-Agent: retrace-bench/1.0 (linux)"`).join(' ; ')} ; curl -u ops:Cu9xLq2wZ https://x`;
    const s: ScanStats = { keywordHits: 0, windows: 0, scannedChars: 0 };
    const spans = findSecrets(line, s);
    expect(line.length).toBeGreaterThan(5_000_000);
    expect(spans.map((span) => line.slice(span.start, span.end))).toContain('Cu9xLq2wZ');
    expect(s.scannedChars / line.length).toBeLessThan(10);
  });
});

describe('no match hides another secret', () => {
  const shapes = fc.constantFrom(...SECRET_SHAPES);
  const looks = fc.constantFrom(...NOT_SECRETS);
  const separator = fc.constantFrom(' ', '\n', ' ; ', ' && ', ' | ', '\n\n', ', ');

  it('removes every secret of any run of shapes and look-alikes, and a second pass changes nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(shapes, looks), separator), { minLength: 1, maxLength: 8 }), (items) => {
        const text = items.map(([item, sep]) => (typeof item === 'string' ? item : item.text) + sep).join('');
        const once = redactText(text, {});
        for (const [item] of items) if (typeof item !== 'string') expect(once).not.toContain(item.secret);
        expect(redactText(once, {})).toBe(once);
      }),
      { numRuns: 300, seed: 15 },
    );
  });
});
