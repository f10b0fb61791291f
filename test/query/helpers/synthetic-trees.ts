import { beforeAll } from 'vitest';
import { loadTree } from '../../../src/query/tree/queries.js';
import type { CandidateNode, DecisionTree } from '../../../src/query/tree/types.js';
import { tempDbPath, tempDir } from '../../helpers/temp.js';
import { readStore } from './derived-store.js';
import { writeSynthetic, type SyntheticSession } from './synthetic-session.js';

export interface SyntheticTrees {
  /** The derived tree of a session (after the file's beforeAll). */
  tree(id: string): DecisionTree | undefined;
  candidate(id: string, name: string): CandidateNode | undefined;
  /** Every candidate as `name verdict`, in the tree's order. */
  names(id: string): string[];
}

/** Writes each synthetic session to a store of its own and derives its tree before the file's tests run. */
export function syntheticTrees(sessions: readonly SyntheticSession[], prefix: string): SyntheticTrees {
  const trees = new Map<string, DecisionTree>();
  beforeAll(async () => {
    const dir = tempDir(prefix);
    for (const session of sessions) {
      const db = tempDbPath(dir);
      await writeSynthetic(db, session);
      trees.set(session.id, (await readStore(db, (store) => loadTree(store, session.id))) as DecisionTree);
    }
  });
  return {
    tree: (id) => trees.get(id),
    candidate: (id, name) => trees.get(id)?.candidates.find((c) => c.name === name),
    names: (id) => trees.get(id)?.candidates.map((c) => `${c.name} ${c.verdict}`) ?? [],
  };
}
