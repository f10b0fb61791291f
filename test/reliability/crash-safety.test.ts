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
  underived: number;
}

async function counts(dbPath: string): Promise<Counts> {
  return queryStore(dbPath, async (db) => ({
    sources: new Map((await db.all('SELECT path FROM sources')).map((r) => [String(r['path']), true])),
    messages: new Map((await db.all('SELECT session_id, count(*) AS n FROM messages GROUP BY 1')).map((r) => [String(r['session_id']), Number(r['n'])])),
    underived: Number(await db.scalar('SELECT count(*) FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM trees t WHERE t.session_id = s.id)')),
  }));
}

/**
 * Starts `retrace ingest --progress` and SIGKILLs it the moment it announces `step` on stderr:
 * kill points follow the ingest's own progress, not the clock, so a loaded machine moves them
 * nowhere. `reading k/6`: source k has just begun (nothing of it committed); `stored k/6`: it has
 * just been committed and its sessions are being derived.
 */
function ingestAndKillAt(dbPath: string, step: string): Promise<{ killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'retrace.js'), 'ingest', corpus, '--db', dbPath, '--json', '--progress'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let killed = false;
    let seen = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      if (!killed && seen.includes(`ingest: ${step} `)) killed = child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => resolve({ killed: killed && signal === 'SIGKILL' }));
  });
}

describe('kill -9 during ingest (issue 15, point 6)', () => {
  const expected = new Map<string, number>();

  beforeAll(async () => {
    mkdirSync(corpus, { recursive: true });
    for (let i = 0; i < SESSIONS; i++) {
      const sessionId = `ses_crash${String(i).padStart(21, '0')}`;
      const doc = syntheticExport({ sessionId, messages: 400, outputPadding: 1500 });
      writeFileSync(join(corpus, `${sessionId}.json`), JSON.stringify(doc, null, 2));
      expected.set(sessionId, doc.messages.length);
    }
  }, 120_000);

  // Kill points spread over the whole ingest, from the first source to the derivation of the last;
  // after each, the next command is either a query of the derived tables or the next ingest.
  const trials: { step: string; next: 'sql' | 'ingest' }[] = [
    { step: 'reading 1/6', next: 'sql' },
    { step: 'stored 1/6', next: 'sql' },
    { step: 'reading 3/6', next: 'ingest' },
    { step: 'stored 3/6', next: 'ingest' },
    { step: 'reading 5/6', next: 'sql' },
    { step: 'stored 6/6', next: 'ingest' },
  ];

  for (const trial of trials) {
    it(`killed at "${trial.step}": the store reads, each source is wholly in or out, the next ${trial.next} derives what was left`, async () => {
      const dbPath = tempDbPath(dir);
      const { killed } = await ingestAndKillAt(dbPath, trial.step);
      expect(killed).toBe(true);

      // The schema is whole whatever the moment: every read command answers.
      const sessions = await runRetraceJson<unknown[]>(['sessions', '--db', dbPath]);
      expect(sessions.code).toBe(0);
      const calls = await runRetraceJson<{ n: number }[]>(['sql', '--db', dbPath, 'SELECT count(*) AS n FROM tool_calls']);
      expect(calls.code).toBe(0);

      const after = await counts(dbPath);
      for (const [sessionId, total] of expected) {
        const present = after.messages.get(sessionId) ?? 0;
        expect([0, total]).toContain(present);
        expect(after.sources.has(join(corpus, `${sessionId}.json`))).toBe(present === total);
      }
      // Killed while deriving the source just stored: its session is in the store without a tree.
      if (trial.step.startsWith('stored')) expect(after.underived).toBeGreaterThanOrEqual(1);

      if (trial.next === 'sql') {
        const trees = await runRetraceJson<{ underived: number }[]>(['sql', '--db', dbPath,
          'SELECT count(*) AS underived FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM trees t WHERE t.session_id = s.id)']);
        expect(trees.code).toBe(0);
        expect(trees.json[0]?.underived).toBe(0);
        if (after.underived > 0) expect(trees.stderr).toMatch(new RegExp(`deriving the decision trees of ${after.underived} sessions? first`));
      }

      const resumed = await runRetraceJson<{ errors: unknown[]; skipped_unchanged: number; sources: number; derived_left_over: number }>(['ingest', corpus, '--db', dbPath]);
      expect(resumed.code).toBe(0);
      expect(resumed.json.errors).toEqual([]);
      expect(resumed.json.sources + resumed.json.skipped_unchanged).toBe(SESSIONS);
      if (trial.next === 'ingest') {
        expect(resumed.json.derived_left_over).toBe(after.underived);
        if (after.underived > 0) expect(resumed.stderr).toMatch(/deriving \d+ sessions? an interrupted ingest left without a decision tree/);
      }
      const final = await counts(dbPath);
      expect(final.messages).toEqual(expected);
      expect(final.underived).toBe(0);
    }, 240_000);
  }
});
