import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { machineNameProblem } from '../../core/machine.js';
import type { Database } from '../database.js';
import { StoreError } from '../errors.js';
import {
  lakeTableOf,
  listTableFiles,
  PARTITION_COLUMNS,
  partFileName,
  partitionDir,
  quoteIdent,
  quoteLiteral,
  unitDigest,
  unitsQuery,
  type LakeTable,
} from './layout.js';

export interface PushTableCounts {
  table: string;
  /** Files written: units new to the lake, or whose rows changed. */
  written: number;
  /** Units whose file with these very rows was already there. */
  unchanged: number;
  /** Older files of a changed unit, removed once the new one was in place. */
  replaced: number;
  rows_written: number;
}

export interface PushSummary {
  lake: string;
  machine: string;
  tables: PushTableCounts[];
  files_written: number;
  files_unchanged: number;
  files_replaced: number;
  rows_written: number;
}

interface UnitRows {
  unit: string;
  agent: string;
  machine: string;
  month: string;
  hash: string;
  rows: number;
}

interface StoreTable extends LakeTable {
  columns: string[];
}

async function storeTables(db: Database): Promise<StoreTable[]> {
  const rows = await db.all(
    `SELECT table_name, list(column_name ORDER BY ordinal_position) AS columns FROM information_schema.columns
     WHERE table_schema = 'main' GROUP BY table_name ORDER BY table_name`,
  );
  const tables: StoreTable[] = [];
  for (const row of rows) {
    const columns = (row['columns'] as unknown[]).map(String);
    const table = lakeTableOf(String(row['table_name']), columns);
    if (table) tables.push({ ...table, columns });
  }
  return tables;
}

/** The columns a file holds: the partition columns come back from the folder names. */
function fileColumns(table: StoreTable): string {
  return table.columns.filter((c) => !(PARTITION_COLUMNS as readonly string[]).includes(c)).map(quoteIdent).join(', ');
}

/** Each unit of a table with its partition and a digest of its rows (the columns a file holds, in any order). */
async function unitRows(db: Database, table: StoreTable, fallbackMachine: string): Promise<UnitRows[]> {
  const rows = await db.all(
    `SELECT u.unit, u.agent, u.machine, u.month, count(*) AS n,
            md5(string_agg(md5(CAST(t AS VARCHAR)), '' ORDER BY md5(CAST(t AS VARCHAR)))) AS hash
     FROM (SELECT ${fileColumns(table)}, ${quoteIdent(table.key)} AS "__unit" FROM ${quoteIdent(table.name)}) t
     JOIN (${unitsQuery(table.unit, fallbackMachine)}) u ON u.unit = t."__unit"
     GROUP BY ALL ORDER BY u.unit`,
  );
  return rows.map((row) => ({
    unit: String(row['unit']),
    agent: String(row['agent']),
    machine: String(row['machine']),
    month: String(row['month']),
    hash: String(row['hash']),
    rows: Number(row['n']),
  }));
}

/**
 * Appends the store's rows to a lake folder. Each unit's rows of each table go to a file named
 * by their digest: a file already there is left alone (pushing twice adds nothing), a new one is
 * written under a temporary name in its partition folder and renamed into place (readers and
 * other machines pushing at the same time never see half a file), and then the unit's older
 * files, if its rows changed, are removed. Files of other machines are never touched. The store
 * is only read.
 */
export async function pushToLake(db: Database, lake: string, fallbackMachine: string): Promise<PushSummary> {
  const problem = machineNameProblem(fallbackMachine);
  if (problem) throw new StoreError(`push: ${problem}`);
  const root = resolve(lake);
  mkdirSync(root, { recursive: true });
  const summary: PushSummary = { lake: root, machine: fallbackMachine, tables: [], files_written: 0, files_unchanged: 0, files_replaced: 0, rows_written: 0 };
  for (const table of await storeTables(db)) {
    const counts: PushTableCounts = { table: table.name, written: 0, unchanged: 0, replaced: 0, rows_written: 0 };
    const units = await unitRows(db, table, fallbackMachine);
    for (const machine of new Set(units.map((u) => u.machine))) {
      const bad = machineNameProblem(machine);
      if (bad) throw new StoreError(`push: the store labels some ${table.name} rows with machine ${bad}; ingest them again with --machine NAME`);
    }
    const existing = listTableFiles(root, table.name);
    for (const unit of units) {
      const dir = partitionDir(root, table.name, unit);
      const name = partFileName(unit.machine, table.name, unit.unit, unit.hash);
      const target = join(dir, name);
      const older = existing.get(unitDigest(unit.machine, table.name, unit.unit)) ?? [];
      if (older.includes(target)) {
        counts.unchanged += 1;
        for (const path of older) if (path !== target) counts.replaced += removeIfThere(path);
        continue;
      }
      mkdirSync(dir, { recursive: true });
      await writeUnitFile(db, table, unit.unit, target);
      counts.written += 1;
      counts.rows_written += unit.rows;
      for (const path of older) counts.replaced += removeIfThere(path);
    }
    summary.tables.push(counts);
    summary.files_written += counts.written;
    summary.files_unchanged += counts.unchanged;
    summary.files_replaced += counts.replaced;
    summary.rows_written += counts.rows_written;
  }
  return summary;
}

async function writeUnitFile(db: Database, table: StoreTable, unit: string, target: string): Promise<void> {
  // A dot name ending in .tmp: no engine's glob or partition discovery reads it.
  const temporary = join(resolve(target, '..'), `.${basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    // COPY takes no bound parameters: the unit and the path are quoted as SQL literals.
    await db.run(
      `COPY (SELECT ${fileColumns(table)} FROM ${quoteIdent(table.name)} WHERE ${quoteIdent(table.key)} = ${quoteLiteral(unit)} ORDER BY ALL)
       TO ${quoteLiteral(temporary)} (FORMAT parquet, COMPRESSION zstd)`,
    );
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new StoreError(`push: writing ${target} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function removeIfThere(path: string): number {
  try {
    rmSync(path);
    return 1;
  } catch {
    // Another push of the same machine removed it first.
    return 0;
  }
}
