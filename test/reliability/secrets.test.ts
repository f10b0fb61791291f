import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { redactText } from '../../src/core/redact/redact.js';
import { runRetrace, runRetraceJson } from '../helpers/cli.js';
import { queryStore } from '../helpers/ingest.js';
import { plantedSecrets, SESSIONS_DIR } from '../helpers/sample.js';
import { writeSecretCorpus, type SecretCorpus } from '../helpers/secret-corpus.js';
import { storeBytes } from '../helpers/store-files.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { NOT_SECRETS, SECRET_SHAPES } from '../fixtures/secrets/shapes.js';

/**
 * The adversarial corpus (test/helpers/secret-corpus.ts) through the real CLI: none of its
 * secrets may reach the store — neither the database file, nor its write-ahead log, nor any
 * value a query reads back — nor any export, and every look-alike must arrive byte for byte.
 */

const dir = tempDir('retrace-secrets-');

function filesUnder(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

function leaks(haystack: string | Buffer, secrets: readonly string[]): string[] {
  const text = typeof haystack === 'string' ? haystack : haystack.toString('latin1');
  const bytes = typeof haystack === 'string' ? null : haystack;
  return secrets.filter((secret) => (bytes ? bytes.includes(Buffer.from(secret)) : text.includes(secret)));
}

/** Every text value of every table, as a query reads it back (the file itself may hold compressed strings). */
async function storedText(db: string): Promise<string> {
  return queryStore(db, async (store) => {
    const columns = await store.all(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'main' AND data_type = 'VARCHAR' ORDER BY table_name, column_name`,
    );
    const parts: string[] = [];
    for (const column of columns) {
      const table = String(column['table_name']);
      const name = String(column['column_name']);
      const rows = await store.all(`SELECT "${name}" AS v FROM "${table}" WHERE "${name}" IS NOT NULL`);
      for (const row of rows) parts.push(String(row['v']));
    }
    return parts.join('\n');
  });
}

describe('secrets: the shapes', () => {
  it(`covers at least 80 shapes, each removed by redaction`, () => {
    expect(SECRET_SHAPES.length).toBeGreaterThanOrEqual(80);
    for (const shape of SECRET_SHAPES) expect(redactText(shape.text, {}), shape.name).not.toContain(shape.secret);
  });

  it('leaves at least 100 look-alikes alone: digests, ids, references, placeholders, code that handles secrets', () => {
    expect(NOT_SECRETS.length).toBeGreaterThanOrEqual(100);
    for (const text of NOT_SECRETS) expect(redactText(text, {})).toBe(text);
  });
});

describe('secrets planted across every agent format', () => {
  const db = tempDbPath(dir);
  let corpus: SecretCorpus;
  let secrets: string[] = [];
  let sessions: { id: string; agent: string }[] = [];

  beforeAll(async () => {
    corpus = writeSecretCorpus(join(dir, 'corpus'));
    secrets = [...corpus.secrets, ...plantedSecrets()];
    const run = await runRetraceJson<{ errors: unknown[]; redactions: number }>(['ingest', ...corpus.inputs, SESSIONS_DIR, '--db', db]);
    expect(run.json.errors).toEqual([]);
    expect(run.json.redactions).toBeGreaterThanOrEqual(corpus.secrets.length);
    sessions = (await runRetraceJson<{ id: string; agent: string }[]>(['sessions', '--db', db])).json;
  }, 240_000);

  it('plants at least 250 distinct secrets of at least 40 shapes in every place, in all three formats', () => {
    expect(corpus.secrets.length).toBeGreaterThanOrEqual(250);
    expect(corpus.shapes).toBeGreaterThanOrEqual(40);
    for (const agent of ['opencode', 'claude', 'codex']) {
      expect(corpus.places[agent], agent).toEqual(expect.arrayContaining(['path', 'title', 'text', 'output', 'input', 'written file']));
    }
    expect(corpus.places['opencode']).toEqual(expect.arrayContaining(['reasoning', 'sidecar']));
    expect(corpus.places['claude']).toEqual(expect.arrayContaining(['thinking', 'sidecar', 'subagent file', 'input json field']));
    expect(corpus.places['codex']).toEqual(expect.arrayContaining(['reasoning', 'argv']));
    expect(new Set(sessions.map((s) => s.agent))).toEqual(new Set(['opencode', 'claude', 'codex']));
  });

  it('leaves none in the database file, its write-ahead log, or any value read back', async () => {
    expect(leaks(storeBytes(db), secrets)).toEqual([]);
    const text = await storedText(db);
    expect(text.length).toBeGreaterThan(100_000);
    expect(leaks(text, secrets)).toEqual([]);
  }, 60_000);

  it('alters none of the look-alikes planted beside them', async () => {
    const text = await storedText(db);
    const altered = corpus.lookAlikeBlocks.filter((planted) => !text.includes(planted));
    expect(corpus.lookAlikeBlocks.length).toBeGreaterThanOrEqual(NOT_SECRETS.length * 9);
    expect(altered).toEqual([]);
  }, 60_000);

  it('puts none in a markdown, mermaid or parquet export of any session', async () => {
    for (const session of sessions) {
      for (const format of ['markdown', 'mermaid']) {
        const run = await runRetrace(['export', session.id, '--to', format, '--db', db]);
        expect(run.code, run.stderr).toBe(0);
        expect(leaks(run.stdout, secrets), `${format} of ${session.id}`).toEqual([]);
      }
      const folder = join(dir, 'parquet', session.id.replace(/[^A-Za-z0-9_-]/g, '_'));
      const parquet = await runRetrace(['export', session.id, '--to', 'parquet', '-o', folder, '--db', db]);
      expect(parquet.code, parquet.stderr).toBe(0);
      const bytes = Buffer.concat(filesUnder(folder).map((f) => readFileSync(f)));
      expect(bytes.length).toBeGreaterThan(0);
      expect(leaks(bytes, secrets)).toEqual([]);
    }
  }, 240_000);

  it('puts none in the plan, the sh script or the ansible playbook of any session that has one', async () => {
    let planned = 0;
    for (const session of sessions) {
      const plan = await runRetrace(['plan', session.id, '--db', db]);
      expect(leaks(plan.stdout + plan.stderr, secrets), `plan of ${session.id}`).toEqual([]);
      if (plan.code !== 0) continue;
      planned += 1;
      for (const format of ['sh', 'ansible']) {
        const target = join(dir, `export-${format}-${planned}`);
        const run = await runRetrace(['export', session.id, '--to', format, '-o', target, '--db', db]);
        expect(run.code, run.stderr).toBe(0);
        const bytes = Buffer.concat([Buffer.from(run.stdout), ...filesUnder(target).map((f) => readFileSync(f))]);
        expect(leaks(bytes, secrets), `${format} of ${session.id}`).toEqual([]);
      }
    }
    expect(planned).toBeGreaterThanOrEqual(1);
  }, 240_000);
});
