import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runRetrace } from '../helpers/cli.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir('retrace-json-errors-');
const locked = tempDbPath(dir);
const missing = join(dir, 'no-store-here');

interface ErrorDocument {
  error: { kind: string; message: string; exit_code: number };
}

/** Every command that answers --json, with the arguments it needs (tree's JSON is --format json). */
const COMMANDS: readonly string[][] = [
  ['ingest', SESSIONS_DIR, '--json'],
  ['sessions', '--json'],
  ['show', 'Deploy', '--json'],
  ['tree', 'Deploy', '--format', 'json'],
  ['why', 'scitrera', '--json'],
  ['timings', '--json'],
  ['sql', 'SELECT 1', '--json'],
  ['plan', 'Deploy', '--json'],
  ['replay', 'Deploy', '--json'],
  ['runs', '--json'],
  ['export', 'Deploy', '--to', 'markdown', '--json'],
  ['rules', 'test', join(REPO_ROOT, 'rules', 'vllm.yaml'), '--session', 'Deploy', '--json'],
];

/** Runs retrace and parses stdout as exactly one JSON document (JSON.parse refuses two). */
async function oneDocument(args: readonly string[]): Promise<{ code: number; doc: ErrorDocument; stderr: string }> {
  const run = await runRetrace(args);
  let doc: ErrorDocument;
  try {
    doc = JSON.parse(run.stdout) as ErrorDocument;
  } catch {
    throw new Error(`retrace ${args.join(' ')} printed no single JSON document (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
  return { code: run.code, doc, stderr: run.stderr };
}

let holder: DuckDBInstance | null = null;

beforeAll(async () => {
  expect((await runRetrace(['ingest', SESSIONS_DIR, '--db', locked])).code).toBe(0);
  // Another process holding the store read-write, as a long ingest or a live replay would.
  holder = await DuckDBInstance.create(locked);
}, 60_000);

afterAll(() => holder?.closeSync());

describe('every command prints one JSON error document with --json (issue 15, point 7)', () => {
  for (const args of COMMANDS) {
    it(`retrace ${args.slice(0, args[0] === 'rules' ? 2 : 1).join(' ')} on a locked store`, async () => {
      const run = await oneDocument([...args, '--db', locked]);
      expect(run.code).toBe(1);
      expect(run.doc.error).toMatchObject({ kind: 'store', exit_code: 1 });
      expect(run.doc.error.message).toMatch(/locked by another process/);
      expect(run.stderr).toMatch(/locked by another process/);
    });
  }

  // ingest and replay create the store they are given (a replay records its run there).
  for (const args of COMMANDS.filter((a) => a[0] !== 'ingest' && a[0] !== 'replay')) {
    it(`retrace ${args[0]} with no store`, async () => {
      const run = await oneDocument([...args, '--db', join(missing, `${args.slice(0, 2).join('-').replace(/\W/g, '_')}.duckdb`)]);
      expect(run.code).toBe(1);
      // `rules test` reports a missing store as its job failing; either way, one document says why.
      expect(run.doc.error).toMatchObject({ kind: expect.stringMatching(/^(store|failed)$/), exit_code: 1, message: expect.stringMatching(/^no store at /) });
    });
  }

  it('for bad usage: an unknown option, a missing argument', async () => {
    const unknown = await oneDocument(['sessions', '--json', '--no-such-option']);
    expect(unknown.code).toBe(2);
    expect(unknown.doc.error).toMatchObject({ kind: 'usage', exit_code: 2, message: expect.stringMatching(/unknown option/) });
    const argument = await oneDocument(['show', '--json']);
    expect(argument.code).toBe(2);
    expect(argument.doc.error.message).toMatch(/missing required argument/);
  });
});
