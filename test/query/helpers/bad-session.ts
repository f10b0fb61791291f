import { expect } from 'vitest';
import { deriveSessions, deriveStored } from '../../../src/query/derive.js';
import { Database } from '../../../src/store/database.js';
import { SESSIONS_DIR } from '../../helpers/sample.js';
import { tempDbPath, tempDir } from '../../helpers/temp.js';
import { ingestDerived } from './derived-store.js';
import { writeSynthetic } from './synthetic-session.js';

/** One session whose tree cannot be derived must never stop the others from answering. */
export const BAD = 'ses_underivable';

export async function storeWithOneBadSession(): Promise<string> {
  const path = tempDbPath(tempDir());
  await ingestDerived(path, [SESSIONS_DIR]);
  await writeSynthetic(path, {
    id: BAD,
    title: 'a session whose rules blow up',
    steps: [
      { role: 'user', text: 'deploy vLLM on the lab box' },
      { role: 'assistant', text: 'Pulling.', calls: [{ command: 'docker pull vllm/vllm-openai:v0.9.0', output: 'Status: Downloaded newer image for vllm/vllm-openai:v0.9.0' }] },
    ],
  });
  const db = await Database.open(path);
  try {
    const sessions = (await db.all(`SELECT id FROM sessions`)).map((row) => String(row['id']));
    const failures = await deriveSessions(db, sessions, {
      derive: async (store, id) => {
        if (id === BAD) throw new Error('a rule threw on this session');
        return deriveStored(store, id);
      },
    });
    expect(failures).toEqual([{ sessionId: BAD, cause: 'a rule threw on this session' }]);
  } finally {
    db.close();
  }
  return path;
}

