// Provenance as a user sees it: a source ingested without --machine is labelled with this
// machine's host name, and `sessions` and `show` name the machine, the agent's working directory
// and the transcript's original path. (The lake's SQL over the same columns: test/store/lake.test.ts.)
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineFromHostname } from '../../src/core/machine.js';
import { REPO_ROOT, runRetrace, runRetraceJson } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir('retrace-provenance-');
const TRANSCRIPTS = join(REPO_ROOT, 'eval', 'transcripts', 'ollama-openwebui-vps-compose-nginx');
const SESSION = '9fc43594-b7e6-4ba3-acd9-d00ba0f1fe0e';

describe('provenance of a source', () => {
  it('defaults the machine to the host name; --machine names another; sessions and show print them with the directory and the original path', { timeout: 180_000 }, async () => {
    const here = tempDbPath(dir);
    expect((await runRetrace(['ingest', TRANSCRIPTS, '--db', here])).code).toBe(0);
    const listed = await runRetraceJson<{ id: string; machine: string; directory: string | null; source_path: string }[]>(['sessions', '--db', here]);
    expect(listed.json).toHaveLength(1);
    expect(listed.json[0]).toMatchObject({ id: SESSION, machine: machineFromHostname(hostname()), directory: '/home/ana' });
    expect(listed.json[0]?.source_path.startsWith(TRANSCRIPTS)).toBe(true);

    const there = tempDbPath(dir);
    expect((await runRetrace(['ingest', TRANSCRIPTS, '--db', there, '--machine', 'jump-host-2'])).code).toBe(0);
    const table = await runRetrace(['sessions', '--db', there]);
    expect(table.stdout).toMatch(/machine/);
    expect(table.stdout).toContain('jump-host-2');
    const show = await runRetrace(['show', SESSION, '--db', there]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(new RegExp(`^machine jump-host-2 · in /home/ana · from ${TRANSCRIPTS.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`, 'm'));
    // A name that cannot be a lake partition is refused, naming the rule.
    const bad = await runRetrace(['ingest', TRANSCRIPTS, '--db', tempDbPath(dir), '--machine', 'a/b']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"a/b" cannot name a machine');
  });
});
