import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Database } from '../store/database.js';

/**
 * A session's rows of every table, one Parquet file per table, for users who move analysis to a
 * larger engine. Tables are found by their `session_id` column, so tables added later (runs…)
 * come along without changes here; `sessions` and `sources` are matched by id and key, `runs` and
 * `run_steps` by the session a run replayed (or the run's own session id).
 */
export interface ParquetFile {
  table: string;
  path: string;
  rows: number;
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export async function exportSessionParquet(db: Database, sessionId: string, folder: string): Promise<ParquetFile[]> {
  const target = resolve(folder);
  mkdirSync(target, { recursive: true });
  const tables = await db.all(
    `SELECT DISTINCT table_name FROM information_schema.columns
     WHERE table_schema = 'main' AND column_name = 'session_id' ORDER BY table_name`,
  );
  // Replays belong to the session they replayed, and a run's own session (a live run is one) to its run.
  const runs = `(SELECT id FROM runs WHERE session_id = ${literal(sessionId)} OR id = ${literal(sessionId)})`;
  const hasRuns = tables.some((row) => row['table_name'] === 'runs');
  const selections: { table: string; where: string }[] = [
    { table: 'sessions', where: `id = ${literal(sessionId)}` },
    { table: 'sources', where: `key IN (SELECT source FROM sessions WHERE id = ${literal(sessionId)})` },
    ...tables.filter((row) => row['table_name'] !== 'runs').map((row) => ({ table: String(row['table_name']), where: `session_id = ${literal(sessionId)}` })),
    ...(hasRuns ? [{ table: 'runs', where: `id IN ${runs}` }, { table: 'run_steps', where: `run_id IN ${runs}` }] : []),
  ];
  const files: ParquetFile[] = [];
  for (const { table, where } of selections) {
    const path = join(target, `${table}.parquet`);
    // COPY takes no bound parameters: the id and path are quoted as SQL literals.
    await db.run(`COPY (SELECT * FROM "${table.replace(/"/g, '""')}" WHERE ${where}) TO ${literal(path)} (FORMAT parquet)`);
    const rows = Number(await db.scalar(`SELECT count(*) FROM "${table.replace(/"/g, '""')}" WHERE ${where}`));
    files.push({ table, path, rows });
  }
  return files;
}
