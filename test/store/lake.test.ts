import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRetrace, runRetraceJson, REPO_ROOT } from '../helpers/cli.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { sessionsCommand } from '../../src/cli/commands/sessions.js';
import { showCommand } from '../../src/cli/commands/show.js';
import { sqlCommand } from '../../src/cli/commands/sql.js';
import { timingsCommand } from '../../src/cli/commands/timings.js';
import { treeCommand } from '../../src/cli/commands/tree.js';
import { whyCommand } from '../../src/cli/commands/why.js';
import type { Output } from '../../src/cli/output.js';
import type { StoreLocation } from '../../src/store/location.js';

/**
 * Three simulated machines, each with its own store, push into one lake folder at the same time
 * (three processes); the lake must answer every read command exactly as one store holding the
 * same sessions does, and never be written by them.
 */
const MACHINES = [
  { name: 'spark-lab-1', transcripts: join(REPO_ROOT, 'sessions') },
  { name: 'laptop.ops', transcripts: join(REPO_ROOT, 'test/fixtures/claude/projects') },
  { name: 'jump_host-3', transcripts: join(REPO_ROOT, 'test/fixtures/codex/sessions') },
];

const dir = tempDir('retrace-lake-');
const lake = join(dir, 'team-lake');
const single = tempDbPath(dir);
const stores = MACHINES.map(() => tempDbPath(dir));

interface PushJson {
  files_written: number;
  files_unchanged: number;
  files_replaced: number;
  rows_written: number;
  tables: { table: string; written: number }[];
}

/** Every file under a folder with its size and modification time: any write shows. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const info = statSync(path);
        files[relative(root, path)] = `${info.size}:${info.mtimeMs}`;
      }
    }
  };
  walk(root);
  return files;
}

/** The built CLI on the store and on the lake: the same JSON. */
async function sameFromCli(args: readonly string[]): Promise<unknown> {
  const a = await runRetraceJson([...args, '--db', single]);
  const b = await runRetraceJson([...args, '--lake', lake]);
  expect(a.code, a.stderr).toBe(0);
  expect(b.code, b.stderr).toBe(0);
  expect(b.json).toEqual(a.json);
  return a.json;
}

/** An Output that keeps what a command printed (the commands' own code, in this process: fast enough to ask about every session). */
function capture(): Output & { documents: unknown[]; warnings: string[] } {
  const documents: unknown[] = [];
  const warnings: string[] = [];
  return {
    documents, warnings, interactive: false, columns: 100,
    line: (text = '') => documents.push(text),
    data: (text) => documents.push(text),
    json: (value) => documents.push(JSON.parse(JSON.stringify(value))),
    warn: (text) => warnings.push(text),
    status: () => undefined,
    clearStatus: () => undefined,
  };
}

type Command = (db: StoreLocation, output: Output) => Promise<number>;

async function sameAnswer(command: Command): Promise<unknown> {
  const a = capture();
  const b = capture();
  expect(await command(single, a)).toBe(0);
  expect(await command({ lake }, b)).toBe(0);
  expect(b.warnings).toEqual([]);
  expect(b.documents).toEqual(a.documents);
  return a.documents[0];
}

let pushes: PushJson[] = [];

beforeAll(async () => {
  for (const [index, machine] of MACHINES.entries()) {
    const own = await runRetrace(['ingest', machine.transcripts, '--db', stores[index] as string, '--machine', machine.name]);
    expect(own.code, own.stderr).toBe(0);
    const all = await runRetrace(['ingest', machine.transcripts, '--db', single, '--machine', machine.name]);
    expect(all.code, all.stderr).toBe(0);
  }
  // Concurrently: three processes into one folder that none of them created first.
  const runs = await Promise.all(stores.map((store) => runRetraceJson<PushJson>(['push', lake, '--db', store])));
  for (const run of runs) expect(run.code, run.stderr).toBe(0);
  pushes = runs.map((run) => run.json);
}, 180_000);

describe('retrace push: three machines, one lake', () => {
  it('lays the files out by table, agent, machine and month, with no temporary file left', () => {
    const files = Object.keys(snapshot(lake));
    expect(files.length).toBe(pushes.reduce((sum, push) => sum + push.files_written, 0));
    for (const file of files) expect(file).toMatch(/^[a-z_]+\/agent=[a-z]+\/machine=[A-Za-z0-9._-]+\/month=(\d{4}-\d{2}|unknown)\/part-[0-9a-f]{16}-[0-9a-f]{16}\.parquet$/);
    const machines = new Set(files.map((file) => /machine=([^/]+)/.exec(file)?.[1]));
    expect([...machines].sort()).toEqual(MACHINES.map((m) => m.name).sort());
    const tables = new Set(files.map((file) => file.split('/')[0]));
    for (const table of ['sessions', 'messages', 'tool_calls', 'sources', 'commands', 'actions', 'candidates', 'pivots', 'trees']) expect(tables).toContain(table);
  });

  it('pushing again adds nothing', async () => {
    const before = snapshot(lake);
    const again = await runRetraceJson<PushJson>(['push', lake, '--db', stores[1] as string]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.files_written).toBe(0);
    expect(again.json.files_replaced).toBe(0);
    expect(again.json.files_unchanged).toBe(pushes[1]?.files_written);
    expect(snapshot(lake)).toEqual(before);
  });

  it('answers sessions, show, tree, why and timings exactly as one store holding the same sessions', async () => {
    const before = snapshot(lake);
    const sessions = (await sameFromCli(['sessions'])) as { id: string; machine: string; directory: string | null }[];
    expect(sessions.length).toBe(9);
    expect(new Set(sessions.map((s) => s.machine))).toEqual(new Set(MACHINES.map((m) => m.name)));
    await sameAnswer((db, out) => sessionsCommand({ db, json: false }, out));
    const trees = [];
    for (const session of sessions) {
      await sameAnswer((db, out) => showCommand(session.id, { db, json: true }, out));
      await sameAnswer((db, out) => showCommand(session.id, { db, json: false }, out));
      trees.push((await sameAnswer((db, out) => treeCommand(session.id, { db, format: 'json' }, out))) as { candidates: { name: string }[] });
      await sameAnswer((db, out) => treeCommand(session.id, { db, format: 'text' }, out));
    }
    const names = [...new Set(trees.flatMap((tree) => tree.candidates.map((c) => c.name)))];
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) await sameAnswer((db, out) => whyCommand(name, { db, json: true }, out));
    const timings = (await sameAnswer((db, out) => timingsCommand({ db, kind: 'all', json: true }, out))) as { attempts: { session: string }[] };
    expect(new Set(timings.attempts.map((a) => a.session)).size).toBeGreaterThan(1);
    await sameFromCli(['timings']);
    await sameFromCli(['tree', 'qwen']);
    await sameFromCli(['why', 'scitrera']);
    await sameAnswer((db, out) => sqlCommand('SELECT s.machine, s.agent, count(*) AS n FROM tool_calls c JOIN sessions s ON s.id = c.session_id GROUP BY ALL ORDER BY ALL', { db, json: true, csv: false, allowFiles: false, timeoutSeconds: 60, memoryLimit: '1GB' }, out));
    expect(snapshot(lake)).toEqual(before);
  }, 240_000);

  it('needs no derivation and names the machines in SQL', async () => {
    const run = await runRetraceJson<{ machine: string; cwd: string | null; original_path: string }[]>(
      ['sql', 'SELECT DISTINCT machine, cwd, original_path FROM sources ORDER BY ALL', '--lake', lake]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.json.map((row) => row.machine)).toEqual(expect.arrayContaining(MACHINES.map((m) => m.name)));
    expect(run.json.every((row) => row.original_path.startsWith(REPO_ROOT))).toBe(true);
    expect(run.json.some((row) => row.cwd === '/home/aurora/spark-ops')).toBe(true);
  });

  it('cannot be written or used to read elsewhere through retrace sql', { timeout: 180_000 }, async () => {
    const before = snapshot(lake);
    const copy = await runRetrace(['sql', `COPY (SELECT 1) TO '${join(lake, 'sessions', 'x.parquet')}'`, '--lake', lake]);
    expect(copy.code).toBe(2);
    expect(copy.stderr).toMatch(/refused: COPY is not a read-only query/);
    const outside = await runRetrace(['sql', `SELECT * FROM read_csv('${join(REPO_ROOT, 'package.json')}')`, '--lake', lake]);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/reads a file outside the lake/);
    expect(snapshot(lake)).toEqual(before);
  });

  it('a session that grew replaces its own files and leaves the other machines alone', { timeout: 180_000 }, async () => {
    const [first] = (await runRetraceJson<{ id: string }[]>(['sessions', '--db', stores[2] as string])).json;
    const others = Object.keys(snapshot(lake)).filter((file) => !file.includes('machine=jump_host-3'));
    const before = snapshot(lake);
    const { Database } = await import('../../src/store/database.js');
    const store = await Database.open(stores[2] as string);
    try {
      await store.run(`UPDATE messages SET text = text || ' (edited)' WHERE session_id = ? AND ordinal = 1`, [first?.id ?? '']);
    } finally {
      store.close();
    }
    const push = await runRetraceJson<PushJson>(['push', lake, '--db', stores[2] as string]);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json.tables.find((t) => t.table === 'messages')?.written).toBe(1);
    expect(push.json.files_replaced).toBe(push.json.files_written);
    const after = snapshot(lake);
    for (const file of others) expect(after[file]).toBe(before[file]);
    expect(Object.keys(after).length).toBe(Object.keys(before).length);
    const count = await runRetraceJson<{ n: number }[]>(['sql', `SELECT count(*) AS n FROM messages WHERE session_id = '${first?.id ?? ''}' AND ordinal = 1`, '--lake', lake]);
    expect(count.json[0]?.n).toBe(1);
  });
});
