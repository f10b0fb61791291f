import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTree } from '../../src/query/tree/queries.js';
import type { DecisionTree } from '../../src/query/tree/types.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { ingestDerived, readStore } from './helpers/derived-store.js';

/**
 * Real sessions people committed to public repositories (test/fixtures/real/, SOURCES.md) that
 * deploy nothing, by a reader's judgement in expected.json (`deploys: false`): ordinary coding,
 * configuration and chat sessions. Their trees must hold no candidate, and their goal must be the
 * user's request (expected.json's `first_request`, read by the independent counter), never an
 * injected preamble, a pasted log or a later aside. Each fixture is ingested alone, as the counter
 * read it.
 */
const CORPUS = join(REPO_ROOT, 'test/fixtures/real');

interface Expected {
  deploys: boolean | null;
  first_request: string | null;
}

const expected = JSON.parse(readFileSync(join(CORPUS, 'expected.json'), 'utf8')) as Record<string, Expected>;
const nonDeploying = Object.entries(expected).filter(([, want]) => want.deploys === false);
const dir = tempDir('retrace-real-tree-');

interface Derived {
  /** The top-level session's tree (a subagent file is its own top-level session). */
  top: DecisionTree | null;
  all: DecisionTree[];
}

const derived = new Map<string, Derived>();

beforeAll(async () => {
  for (const [fixture] of nonDeploying) {
    const db = tempDbPath(dir);
    await ingestDerived(db, [join(CORPUS, fixture)]);
    await readStore(db, async (store) => {
      const rows = await store.all('SELECT id, parent_id FROM sessions ORDER BY started_at NULLS LAST, id');
      const ids = new Set(rows.map((row) => String(row['id'])));
      const all: DecisionTree[] = [];
      let top: DecisionTree | null = null;
      for (const row of rows) {
        const tree = await loadTree(store, String(row['id']));
        if (!tree) continue;
        all.push(tree);
        // A subagent file read alone is the top of its store: its parent is not in it.
        const parent = row['parent_id'];
        if (top === null && (parent === null || parent === undefined || !ids.has(String(parent)))) top = tree;
      }
      derived.set(fixture, { top, all });
    });
  }
}, 300_000);

/** Whitespace flattened, an ellipsis of clipping dropped: how a goal and a request are compared. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/…$/, '').trim();
}

describe('real sessions that deploy nothing', () => {
  it('are at least 10 files of the real corpus', () => {
    expect(nonDeploying.length).toBeGreaterThanOrEqual(10);
  });

  for (const [fixture, want] of nonDeploying) {
    it(`${fixture}: no candidate, the goal is the user's request`, () => {
      const got = derived.get(fixture);
      expect(got, 'derived').toBeDefined();
      const candidates = (got as Derived).all.flatMap((tree) => tree.candidates.map((c) => `${tree.session}: ${c.name} (${c.verdict})`));
      expect(candidates).toEqual([]);
      const goal = (got as Derived).top?.goal ?? null;
      if (want.first_request === null) {
        expect(goal).toBeNull();
        return;
      }
      expect(goal, 'a goal').not.toBeNull();
      // The goal opens with the request's first words (the goal is clipped and re-joined from sentences).
      const request = flat(want.first_request);
      const head = request.slice(0, Math.min(40, request.length));
      expect(flat(goal as string).slice(0, head.length)).toBe(head);
    });
  }
});
