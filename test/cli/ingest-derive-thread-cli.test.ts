import { describe, expect, it } from 'vitest';
import { runRetrace, runRetraceJson } from '../helpers/cli.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

/** `retrace ingest --no-derive-thread` derives on the main thread: the same trees as the worker gives. */
describe('retrace ingest --no-derive-thread', () => {
  it('stores the sample with the same sessions and the same tree as the default derive thread', async () => {
    const dir = tempDir('retrace-derive-thread-');
    const trees: string[] = [];
    for (const flags of [[], ['--no-derive-thread']]) {
      const db = tempDbPath(dir);
      const ingest = await runRetraceJson<{ sessions: number; errors: unknown[] }>(['ingest', SESSIONS_DIR, '--db', db, ...flags]);
      expect(ingest.code).toBe(0);
      expect(ingest.json.sessions).toBeGreaterThan(0);
      const sessions = await runRetraceJson<{ id: string }[] | { sessions: { id: string }[] }>(['sessions', '--db', db, '--json']);
      const list = Array.isArray(sessions.json) ? sessions.json : sessions.json.sessions;
      const tree = await runRetrace(['tree', (list[0] as { id: string }).id, '--db', db, '--json']);
      expect(tree.code).toBe(0);
      trees.push(tree.stdout);
    }
    expect(trees[1]).toContain('"verdict"');
    expect(trees[1]).toBe(trees[0]);
  });

  it('is told in ingest --help', async () => {
    const help = await runRetrace(['ingest', '--help']);
    expect(help.stdout).toContain('--no-derive-thread');
  });
});
