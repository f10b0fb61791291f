import { deriveSessions, staleSessions } from '../../query/derive.js';
import { resolveSession } from '../../query/session-queries.js';
import { loadDerivation } from '../../query/stored-derivation.js';
import type { Database } from '../../store/database.js';
import { extractPlan, type Extraction } from './extract.js';
import { recordedSession } from './recorded.js';

export class StaleDerivationError extends Error {
  constructor(sessionId: string) {
    super(`the decision tree of ${sessionId} is missing or from other rules; run \`retrace tree ${sessionId}\` once (it re-derives), then plan again`);
    this.name = 'StaleDerivationError';
  }
}

/**
 * Reads a session's stored derivation (its `actions` rows and decision tree) and extracts its plan
 * (SESSION: an id, an id prefix or a title substring). A tree derived by other rules is derived
 * again first when the store is writable; `retrace plan` opens it through `withDerivedSessions`,
 * which does that before a read-only open.
 */
export async function planFromStore(db: Database, reference: string): Promise<Extraction> {
  const session = await resolveSession(db, reference);
  if ((await staleSessions(db, [session.id])).length > 0) {
    if (db.readOnly) throw new StaleDerivationError(session.id);
    await deriveSessions(db, [session.id]);
  }
  return extractPlan(recordedSession(await loadDerivation(db, session.id)));
}
