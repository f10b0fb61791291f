import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetraceJson } from '../helpers/cli.js';
import { queryStore } from '../helpers/ingest.js';
import { syntheticExport } from '../helpers/synthetic-opencode.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir('retrace-crash-');
const corpus = join(dir, 'corpus');
const SESSIONS = 6;

interface Counts {
  sources: Map<string, boolean>;
  messages: Map<string, number>;
}

async function counts(dbPath: string): Promise<Counts> {
  return queryStore(dbPath, async (db) => ({
    sources: new Map((await db.all('SELECT path FROM sources')).map((r) => [String(r['path']), true])),
    messages: new Map((await db.all('SELECT session_id, count(*) AS n FROM messages GROUP BY 1')).map((r) => [String(r['session_id']), Number(r['n'])])),
  }));
}

/** Starts `retrace ingest` and SIGKILLs it after `delayMs` (or lets it finish first). */
function ingestAndKill(dbPath: string, delayMs: number): Promise<{ killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'retrace.js'), 'ingest', corpus, '--db', dbPath, '--json'], { stdio: 'ignore' });
    let killed = false;
    const timer = setTimeout(() => {
      killed = child.kill('SIGKILL');
    }, delayMs);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ killed: killed && signal === 'SIGKILL' });
    });
  });
}

describe('kill -9 during ingest', () => {
  const expected = new Map<string, number>();
  let cleanMs = 0;

  beforeAll(async () => {
    mkdirSync(corpus, { recursive: true });
    for (let i = 0; i < SESSIONS; i++) {
      const sessionId = `ses_crash${String(i).padStart(21, '0')}`;
      const doc = syntheticExport({ sessionId, messages: 1200, outputPadding: 1500 });
      writeFileSync(join(corpus, `${sessionId}.json`), JSON.stringify(doc, null, 2));
      expected.set(sessionId, doc.messages.length);
    }
    const started = Date.now();
    const clean = await runRetraceJson<{ messages: number }>(['ingest', corpus, '--db', tempDbPath(dir)]);
    cleanMs = Date.now() - started;
    expect(clean.json.messages).toBe(SESSIONS * 1200);
  }, 120_000);

  it('leaves a store that opens, holds each source wholly or not at all, and is completed by the next ingest', async () => {
    let killsMidway = 0;
    // Kill points spread over the whole ingest, from start-up to the last source.
    for (const fraction of [0.15, 0.3, 0.45, 0.6, 0.75, 0.9]) {
      const dbPath = tempDbPath(dir);
      const { killed } = await ingestAndKill(dbPath, Math.round(cleanMs * fraction));
      if (killed) killsMidway += 1;
      const after = await counts(dbPath).catch(() => ({ sources: new Map(), messages: new Map() }) as Counts);
      for (const [sessionId, total] of expected) {
        const present = after.messages.get(sessionId) ?? 0;
        const recorded = after.sources.has(join(corpus, `${sessionId}.json`));
        expect([0, total]).toContain(present);
        expect(recorded).toBe(present === total);
      }
      const resumed = await runRetraceJson<{ errors: unknown[]; skipped_unchanged: number; sources: number }>(['ingest', corpus, '--db', dbPath]);
      expect(resumed.code).toBe(0);
      expect(resumed.json.errors).toEqual([]);
      expect(resumed.json.sources + resumed.json.skipped_unchanged).toBe(SESSIONS);
      const final = await counts(dbPath);
      expect(final.messages).toEqual(expected);
    }
    expect(killsMidway).toBeGreaterThanOrEqual(4);
  }, 240_000);
});
