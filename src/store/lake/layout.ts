import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FORMATS } from '../../core/model.js';
import { agentOfFormat } from '../../core/warnings.js';

/**
 * The shape of a lake: one folder per table, Hive-partitioned by agent, machine and month
 * (`tool_calls/agent=claude/machine=lab-1/month=2026-02/part-….parquet`), so Spark, Trino,
 * ClickHouse and DuckDB read the same folder with their own partition discovery. The partition
 * columns are never written inside the files (Spark refuses a column that is both), and come
 * back as columns from the folder names.
 *
 * A file holds one table's rows of one unit: a session (its messages, calls, derived rows…), a
 * source (its row, problems, unknown records) or a replay run. Its name carries a digest of the
 * unit and of its rows: pushing the same rows again finds the file already there, and a unit
 * whose rows changed gets a new file that replaces the old one.
 */
export const PARTITION_COLUMNS = ['agent', 'machine', 'month'] as const;

export type UnitKind = 'session' | 'source' | 'run';

export interface LakeTable {
  name: string;
  unit: UnitKind;
  /** The column that names the unit a row belongs to. */
  key: string;
}

/** Tables whose unit is not found by a `session_id` column. */
const SPECIAL: Readonly<Record<string, Omit<LakeTable, 'name'>>> = {
  sessions: { unit: 'session', key: 'id' },
  sources: { unit: 'source', key: 'key' },
  unknown_records: { unit: 'source', key: 'source' },
  ingest_problems: { unit: 'source', key: 'source' },
  runs: { unit: 'run', key: 'id' },
  run_steps: { unit: 'run', key: 'run_id' },
};

/** How a store table is pushed, or null for one a lake does not hold (retrace_meta: a lake has no schema version). */
export function lakeTableOf(name: string, columns: readonly string[]): LakeTable | null {
  const special = SPECIAL[name];
  if (special) return { name, ...special };
  if (columns.includes('session_id')) return { name, unit: 'session', key: 'session_id' };
  if (columns.includes('run_id')) return { name, unit: 'run', key: 'run_id' };
  return null;
}

export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

const AGENT_OF_FORMAT = `CASE format ${FORMATS.map((f) => `WHEN ${quoteLiteral(f)} THEN ${quoteLiteral(agentOfFormat(f))}`).join(' ')} ELSE 'unknown' END`;
const MONTH = (column: string): string => `coalesce(strftime(${column}, '%Y-%m'), 'unknown')`;

/**
 * Each unit with its partition: `(unit, agent, machine, month)`. A row stored without a machine
 * (ingested before provenance, or a replay) is labelled with the pushing machine, where its store is.
 */
export function unitsQuery(kind: UnitKind, fallbackMachine: string): string {
  const machine = (column: string): string => `coalesce(${column}, ${quoteLiteral(fallbackMachine)})`;
  switch (kind) {
    case 'session':
      return `SELECT id AS unit, agent, ${machine('machine')} AS machine, ${MONTH('started_at')} AS month FROM sessions`;
    case 'source':
      return `SELECT src.key AS unit, ${AGENT_OF_FORMAT} AS agent, ${machine('src.machine')} AS machine,
        ${MONTH('(SELECT min(s.started_at) FROM sessions s WHERE s.source = src.key)')} AS month FROM sources src`;
    case 'run':
      return `SELECT id AS unit, 'retrace' AS agent, ${quoteLiteral(fallbackMachine)} AS machine, ${MONTH('started_at')} AS month FROM runs`;
  }
}

export interface Partition {
  agent: string;
  machine: string;
  month: string;
}

export function partitionDir(root: string, table: string, partition: Partition): string {
  return join(root, table, `agent=${partition.agent}`, `machine=${partition.machine}`, `month=${partition.month}`);
}

/** The files of a table (and only finished ones: a temporary name never matches). */
export const PART_FILE = /^part-([0-9a-f]{16})-([0-9a-f]{16})\.parquet$/;

export function partFileName(machine: string, table: string, unit: string, contentHash: string): string {
  return `part-${unitDigest(machine, table, unit)}-${contentHash.slice(0, 16)}.parquet`;
}

/** The machine is part of a unit's digest: a push never replaces another machine's file. */
export function unitDigest(machine: string, table: string, unit: string): string {
  return createHash('sha256').update(`${machine}\u0000${table}\u0000${unit}`).digest('hex').slice(0, 16);
}

/** The glob every engine can read a table with. */
export function tableGlob(root: string, table: string): string {
  return join(root, table, 'agent=*', 'machine=*', 'month=*', 'part-*.parquet');
}

/** Every finished file of a table, by the digest of its unit. */
export function listTableFiles(root: string, table: string): Map<string, string[]> {
  const byUnit = new Map<string, string[]>();
  for (const dir of partitionDirs(join(root, table))) {
    for (const name of safeList(dir)) {
      const match = PART_FILE.exec(name);
      if (!match?.[1]) continue;
      const list = byUnit.get(match[1]) ?? [];
      list.push(join(dir, name));
      byUnit.set(match[1], list);
    }
  }
  return byUnit;
}

function partitionDirs(tableDir: string): string[] {
  const dirs: string[] = [];
  for (const agent of safeList(tableDir).filter((n) => n.startsWith('agent='))) {
    for (const machine of safeList(join(tableDir, agent)).filter((n) => n.startsWith('machine='))) {
      for (const month of safeList(join(tableDir, agent, machine)).filter((n) => n.startsWith('month='))) {
        dirs.push(join(tableDir, agent, machine, month));
      }
    }
  }
  return dirs;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
