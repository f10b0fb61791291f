// The eval corpus itself: every story validates, renders to exactly the committed transcripts,
// and a broken story or label-only entry is reported with its file and line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir as freshDir } from '../helpers/temp.js';
import { CorpusError, loadRealEntries, loadSets, loadStories } from '../../eval/load.js';
import { EVAL_DIR, render, renderAll } from '../../eval/render/main.js';

function tempDir(files: Record<string, string>): string {
  const dir = freshDir('eval-corpus-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const minimal = (extra = ''): string => `id: tiny
agent: claude
title: tiny
hardware: none
frameworks: [vllm]
session: {start: "2026-01-01T00:00:00Z", cwd: /home/u, version: 2.1.0, model: m}
labels:
  deploys: true
  candidates: [{name: "a:1", kind: image, verdict: accepted}]
turns:
  - user: go
  - assistant:
      text: done
${extra}`;

describe('the committed corpus', () => {
  it('has at least 14 valid stories over all four formats', () => {
    const stories = loadStories(join(EVAL_DIR, 'stories'));
    expect(stories.length).toBeGreaterThanOrEqual(14);
    expect(new Set(stories.map(({ story }) => story.agent))).toEqual(new Set(['claude', 'codex', 'opencode-export', 'opencode-db']));
  });

  it('matches a fresh render of every story', () => {
    expect(renderAll(true).problems).toEqual([]);
  });

  it('puts every story in exactly one set of eval/sets.yaml', () => {
    const ids = loadStories(join(EVAL_DIR, 'stories')).map(({ story }) => story.id);
    const real = loadRealEntries(join(EVAL_DIR, 'real')).map(({ id }) => id);
    const sets = loadSets(join(EVAL_DIR, 'sets.yaml'), ids, real);
    expect([...sets.keys()].filter((id) => !real.includes(id)).sort()).toEqual([...ids].sort());
    expect(new Set(sets.values()).has('development')).toBe(true);
  });

  it('names a story in no set, one in two sets, and a set naming no story', () => {
    const dir = tempDir({ 'sets.yaml': 'sets:\n  a: [one, two]\n  b: [two, ghost]\n' });
    let problems: string[] = [];
    try {
      loadSets(join(dir, 'sets.yaml'), ['one', 'two', 'three']);
    } catch (error) {
      problems = error instanceof CorpusError ? error.problems : [];
    }
    expect(problems.map((problem) => problem.replace(/^.*sets\.yaml: /, ''))).toEqual([
      'two is in both a and b',
      'set b names ghost, which is no story in eval/stories and no entry in eval/real',
      'story three is in no set (add it to the set it was scored in)',
    ]);
  });

  it('lets a set name a label-only real entry, which needs no set', () => {
    const dir = tempDir({ 'sets.yaml': 'sets:\n  a: [one]\n  real-deploy: [real-x]\n' });
    const sets = loadSets(join(dir, 'sets.yaml'), ['one'], ['real-x', 'real-y']);
    expect(Object.fromEntries(sets)).toEqual({ one: 'a', 'real-x': 'real-deploy' });
  });

  it('renders the same bytes twice', () => {
    const [first] = loadStories(join(EVAL_DIR, 'stories'));
    expect(JSON.stringify(render(first!.story))).toBe(JSON.stringify(render(first!.story)));
  });
});

describe('loading stories', () => {
  it('accepts a minimal story', () => {
    expect(loadStories(tempDir({ 'tiny.yaml': minimal() }))[0]?.story.id).toBe('tiny');
  });

  it('names the file and line of a schema error', () => {
    const broken = minimal().replace('verdict: accepted', 'verdict: maybe');
    try {
      loadStories(tempDir({ 'tiny.yaml': broken }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CorpusError);
      expect((error as CorpusError).problems[0]).toMatch(/tiny\.yaml:9: .*labels\.candidates\.0\.verdict/);
    }
  });

  it('names the line of a YAML syntax error and rejects a mismatched file name', () => {
    expect(() => loadStories(tempDir({ 'tiny.yaml': minimal('  - user: [unclosed') }))).toThrow(/tiny\.yaml:14:/);
    expect(() => loadStories(tempDir({ 'other.yaml': minimal() }))).toThrow(/named after the story's id/);
  });

  it('rejects an edit whose old text is not in the file the session read', () => {
    const story = minimal(`      calls:
        - {tool: read, path: /home/u/a.txt, output: "alpha\\n"}
  - assistant:
      calls:
        - {tool: edit, path: /home/u/a.txt, old: beta, new: gamma}
  - assistant:
      text: ok
`).replace('      text: done\n', '');
    expect(() => loadStories(tempDir({ 'tiny.yaml': story }))).toThrow(/old text is not in \/home\/u\/a\.txt/);
  });

  it('rejects labels that contradict themselves', () => {
    const story = minimal().replace('verdict: accepted}]', 'verdict: rejected}]\n  pivots: [[a:1, b:2]]');
    expect(() => loadStories(tempDir({ 'tiny.yaml': story }))).toThrow(/tiny\.yaml:10: pivot names "b:2", which is no candidate[\s\S]*tiny\.yaml:8: none_accepted is false but no candidate is accepted/);
  });
});

describe('label-only entries', () => {
  it('load with their transcript path and default labels', () => {
    const dir = tempDir({ 'sample.yaml': 'transcript: ../sessions/x.json\ndeploys: false\ngoal_keywords: [Qwen]\n' });
    const [entry] = loadRealEntries(dir);
    expect(entry).toMatchObject({ id: 'sample', entry: { transcript: '../sessions/x.json', deploys: false, candidates: [], plan: [] } });
  });

  it('report a bad field with file and line', () => {
    const dir = tempDir({ 'bad.yaml': 'transcript: x.jsonl\ndeploys: maybe\n' });
    expect(() => loadRealEntries(dir)).toThrow(/bad\.yaml:2: .*deploys/);
  });
});
