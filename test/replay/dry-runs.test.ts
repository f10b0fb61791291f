import { describe, expect, it } from 'vitest';
import { replayCommand } from '../../src/cli/commands/replay.js';
import type { Output } from '../../src/cli/output.js';
import { listRuns } from '../../src/store/run-queries.js';
import { runRetrace } from '../helpers/cli.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir('retrace-dry-');
const dbPath = tempDbPath(dir);
const silent: Output = { line: () => undefined, data: () => undefined, json: () => undefined, warn: () => undefined, status: () => undefined, clearStatus: () => undefined, interactive: false, columns: 100 };

async function views(): Promise<string[]> {
  const outputs: string[] = [];
  for (const args of [['why', 'hellohal', '--json'], ['timings', '--json'], ['sessions', '--json']]) {
    const result = await runRetrace([...args, '--db', dbPath]);
    expect(result.code, result.stderr).toBe(0);
    outputs.push(result.stdout);
  }
  return outputs;
}

describe('dry runs keep the record honest', () => {
  it('eleven dry runs are eleven runs, and leave why, timings and sessions as they were', { timeout: 120_000 }, async () => {
    await ingestPaths(dbPath, [SESSIONS_DIR]);
    const before = await views();
    expect(before[0]).toContain('accepted');
    for (let i = 0; i < 11; i += 1) {
      expect(await replayCommand('Qwen3.5', { db: dbPath, hosts: [], vars: [], live: false, yes: false, acceptNew: false, json: false }, silent)).toBe(0);
    }
    const runs = await queryStore(dbPath, listRuns);
    expect(runs.filter((run) => run.mode === 'dry')).toHaveLength(11);
    expect(await views()).toEqual(before);
    const sessions = await queryStore(dbPath, (db) => db.scalar(`SELECT count(*) FROM sessions WHERE agent = 'retrace'`));
    expect(Number(sessions)).toBe(0);
  });
});
