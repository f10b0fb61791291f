import type { Prng } from '../../lib/prng.js';
import { createOpencodeDb, insertV1Session, type V1Message } from '../../../test/helpers/opencode-db.js';
import type { SessionPlan } from '../story/session.js';
import { OpencodeIds, OpencodeMessages } from './opencode-messages.js';

/**
 * An `opencode.db` (1.x tables, opencode's own DDL from the test helpers) of `count` sessions of
 * 2–12 messages each, the stories cut short: what a user with tens of thousands of short sessions
 * has, where per-session overhead is what counts.
 */
export function writeOpencodeDb(prng: Prng, file: string, count: number, planOf: (index: number) => SessionPlan): { file: string; messages: number; toolCalls: number } {
  const db = createOpencodeDb(file, '1.x');
  let messages = 0;
  let toolCalls = 0;
  try {
    for (let index = 0; index < count; index += 1) {
      const plan = planOf(index);
      const ids = new OpencodeIds(prng);
      const sessionId = ids.descending(plan.info.startMs);
      const builder = new OpencodeMessages(prng, ids, sessionId, plan.info);
      const wanted = prng.int(2, 12);
      const rows: V1Message[] = [];
      let endMs = plan.info.startMs;
      for (const turn of plan.turns) {
        rows.push(builder.message(turn) as V1Message);
        if (turn.role === 'assistant') {
          toolCalls += turn.calls.length;
          endMs = turn.endMs;
        }
        if (rows.length >= wanted) break;
      }
      messages += rows.length;
      insertV1Session(db, { id: sessionId, title: plan.info.title, version: '1.2.6', directory: plan.info.cwd, created: plan.info.startMs, updated: endMs }, rows);
    }
  } finally {
    db.close();
  }
  return { file, messages, toolCalls };
}
