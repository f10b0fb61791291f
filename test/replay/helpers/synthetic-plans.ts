import type { Extraction } from '../../../src/replay/plan/extract.js';
import { planFromStore } from '../../../src/replay/plan/load.js';
import { Database } from '../../../src/store/database.js';
import { tempDbPath } from '../../helpers/temp.js';
import { writeSynthetic, type SyntheticSession } from '../../query/helpers/synthetic-session.js';

/** The plan of a synthetic session, written to a store of its own in `dir` and derived there. */
export async function syntheticPlan(dir: string, session: SyntheticSession): Promise<Extraction> {
  const dbPath = tempDbPath(dir);
  await writeSynthetic(dbPath, session);
  const db = await Database.open(dbPath);
  try {
    return await planFromStore(db, session.id);
  } finally {
    db.close();
  }
}
