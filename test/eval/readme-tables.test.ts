import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readmeTables } from '../../eval/score/readme-tables.js';

const committed = JSON.parse(readFileSync(new URL('../../bench/results/eval.json', import.meta.url), 'utf8'));

describe('the README tables made from eval.json', () => {
  it('have a row per set, per story, per framework and per shape, with the means as two decimals', () => {
    const markdown = readmeTables(committed);
    const rows = markdown.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| |'));
    const stories = committed.entries.filter((e: { source: string }) => e.source === 'story').length;
    const sets = Object.keys(committed.by_set).length + 1;
    expect(rows.length).toBe(sets + stories + Object.keys(committed.by_framework).length + Object.keys(committed.by_shape).length);
    expect(markdown).toContain(`| **all** (${committed.overall.n}) | ${committed.overall.cand_p.toFixed(2)} | ${committed.overall.cand_r.toFixed(2)} |`);
  });

  it('refuse a set they have no name for', () => {
    const withNewSet = { ...committed, by_set: { ...committed.by_set, 'fresh-99': committed.by_set.development } };
    expect(() => readmeTables(withNewSet)).toThrow(/no name for set fresh-99/);
  });
});
