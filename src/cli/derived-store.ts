import type { Database } from '../store/database.js';
import type { StoreLocation } from '../store/location.js';
import { withDerivedStore } from '../query/derived-store.js';
import { rulesInForce } from '../query/rules/in-force.js';
import type { Output } from './output.js';
import { warnRuleProblems } from './rule-problems.js';

/**
 * `withDerivedStore` for a command: sessions whose trees are missing (an interrupted ingest stored
 * them and was killed before deriving them) or from another rule set are derived first, said in one
 * line on stderr, with a progress bar on a terminal when there is more than one; a session that
 * cannot be derived is named once on stderr (it is recorded, and every other session answers).
 */
export function withDerivedSessions<T>(
  output: Output,
  location: StoreLocation,
  select: (db: Database) => Promise<readonly string[] | null>,
  work: (db: Database) => Promise<T>,
): Promise<T> {
  return withDerivedStore(location, select, async (db) => {
    warnRuleProblems((await rulesInForce()).problems, output);
    return work(db);
  }, {
    onProgress: (done, total) => {
      if (done === 0 && total > 0) {
        output.warn(`retrace: deriving the decision trees of ${total} session${total === 1 ? '' : 's'} first (not derived yet, or by other rules)`);
      }
      if (total > 1 && done < total) output.status(`deriving decision trees (the rules changed or are new): ${done}/${total} sessions`);
      else output.clearStatus();
    },
    onStaleLake: (sessionIds) => {
      output.warn(`${sessionIds.length} session${sessionIds.length === 1 ? '' : 's'} of the lake ${sessionIds.length === 1 ? 'was' : 'were'} pushed without a decision tree of the rules in force (e.g. ${sessionIds[0] ?? ''}): read as pushed; push again from a store with these rules to refresh`);
    },
    onFailures: (failures) => {
      for (const failure of failures) output.warn(`no decision tree for ${failure.sessionId}: ${failure.cause} (recorded; retried when the rules change)`);
    },
  });
}
