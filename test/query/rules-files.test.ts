import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activeRules, builtInRulesDir } from '../../src/query/rules/active.js';
import { checkRuleExamples } from '../../src/query/rules/check.js';
import { parseRuleFile } from '../../src/query/rules/load.js';

/** Every built-in rule file validates, and every example in it matches (or does not) as it says. */
const files = readdirSync(builtInRulesDir()).filter((name) => name.endsWith('.yaml'));

describe('built-in rule files', () => {
  it('cover the serving stacks the issue lists, and plain services', () => {
    const ids = activeRules().frameworks.map((f) => f.id);
    for (const id of ['vllm', 'sglang', 'trtllm', 'nim', 'tgi', 'ollama', 'llamacpp', 'exllama', 'lmdeploy', 'mlc', 'triton', 'http-service']) expect(ids).toContain(id);
  });

  it.each(files)('%s validates and its examples hold', (name) => {
    const path = join(builtInRulesDir(), name);
    const parsed = parseRuleFile(path, readFileSync(path, 'utf8'));
    expect(parsed.problems).toEqual([]);
    if (!parsed.rule) throw new Error('not parsed');
    expect(checkRuleExamples(path, parsed.rule, activeRules())).toEqual([]);
  });

  it('every signature and version fact has an example that must match', () => {
    for (const name of files) {
      const path = join(builtInRulesDir(), name);
      const rule = parseRuleFile(path, readFileSync(path, 'utf8')).rule;
      for (const signature of rule?.signatures ?? []) expect(signature.examples.match.length, `${name}: ${signature.id}`).toBeGreaterThan(0);
      for (const version of rule?.versions ?? []) expect(version.examples.match.length, `${name}: ${version.component}`).toBeGreaterThan(0);
    }
  });
});

describe('a rule file with mistakes', () => {
  it('names the line of a wrong field, an unknown key and a bad effect', () => {
    const text = [
      'id: broken',
      'kind: framework',
      'label: Broken',
      'description: wrong on purpose',
      'names: [broken]',
      'signatures:',
      '  - id: broken-fails',
      '    description: x',
      '    effect: explodes',
      '    decides: [serve]',
      '    keywords: [boom]',
      "    pattern: 'boom'",
      '    label: boom',
      'colour: blue',
    ].join('\n');
    const { rule, problems } = parseRuleFile('/rules/broken.yaml', text);
    expect(rule).toBeNull();
    expect(problems).toContainEqual(expect.objectContaining({ file: '/rules/broken.yaml', line: 9, message: expect.stringContaining('signatures.0.effect') }));
    expect(problems).toContainEqual(expect.objectContaining({ line: expect.any(Number), message: expect.stringContaining('colour') }));
  });

  it('reports YAML that does not parse, and a pattern that is no regex, with their lines', () => {
    expect(parseRuleFile('/r/a.yaml', 'id: a\nkind: [framework\n').problems[0]).toMatchObject({ file: '/r/a.yaml', message: expect.stringContaining('not valid YAML') });
    const badRegex = parseRuleFile('/r/b.yaml', [
      'id: b', 'kind: generic', 'label: B', 'description: d', 'signatures:', '  - id: b1', '    description: x', '    effect: failure',
      '    decides: [serve]', '    keywords: [x]', "    pattern: '(unclosed'", '    label: x', '    examples: {match: [x]}',
    ].join('\n'));
    expect(badRegex.problems).toEqual([expect.objectContaining({ line: 11, message: expect.stringContaining('signatures.0.pattern') })]);
  });
});
