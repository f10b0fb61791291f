import { resolveSession, sessionMessages } from '../../query/session-queries.js';
import type { Database } from '../../store/database.js';
import { extractPlan, type Extraction } from './extract.js';
import { recordedSession } from './recorded.js';

/** Reads a session from the store and extracts its plan (SESSION: an id, an id prefix or a title substring). */
export async function planFromStore(db: Database, reference: string): Promise<Extraction> {
  const session = await resolveSession(db, reference);
  const messages = await sessionMessages(db, session.id);
  return extractPlan(recordedSession({ id: session.id, title: session.title }, messages));
}
