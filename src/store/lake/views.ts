import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database } from '../database.js';
import { StoreError } from '../errors.js';
import { lakeTableOf, listTableFiles, PARTITION_COLUMNS, quoteIdent, quoteLiteral, tableGlob } from './layout.js';

/**
 * A lake read as a store: an in-memory database with retrace's schema, whose tables that have
 * files in the lake are replaced by views of the same name and columns over DuckDB's Parquet
 * reader (`read_parquet(…, hive_partitioning = true)`). Every query of the store works
 * unchanged; the partition columns a table lacks (`agent`, `machine`, `month`) come last.
 * A column no file holds (files pushed by an older retrace) reads as NULL.
 */

interface Column {
  name: string;
  type: string;
}

export function assertLakeFolder(dir: string): string {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new StoreError(`no lake at ${root}: \`retrace push ${dir}\` creates one (or pass --db FILE)`);
  }
  return root;
}

async function schemaTables(db: Database): Promise<Map<string, Column[]>> {
  const rows = await db.all(
    `SELECT table_name, column_name, data_type FROM information_schema.columns
     WHERE table_schema = 'main' ORDER BY table_name, ordinal_position`,
  );
  const tables = new Map<string, Column[]>();
  for (const row of rows) {
    const list = tables.get(String(row['table_name'])) ?? [];
    list.push({ name: String(row['column_name']), type: String(row['data_type']) });
    tables.set(String(row['table_name']), list);
  }
  return tables;
}

function reader(root: string, table: string): string {
  const types = PARTITION_COLUMNS.map((c) => `${quoteLiteral(c)}: VARCHAR`).join(', ');
  return `read_parquet(${quoteLiteral(tableGlob(root, table))}, hive_partitioning = true, union_by_name = true, hive_types = {${types}})`;
}

/** Replaces each table that has files in the lake by its view. Returns the tables found. */
export async function createLakeViews(db: Database, root: string): Promise<string[]> {
  const found: string[] = [];
  for (const [table, columns] of await schemaTables(db)) {
    if (!lakeTableOf(table, columns.map((c) => c.name))) continue;
    if (listTableFiles(root, table).size === 0) continue;
    const source = reader(root, table);
    const present = new Set((await db.all(`DESCRIBE SELECT * FROM ${source}`)).map((row) => String(row['column_name'])));
    const selected = columns.map((c) =>
      present.has(c.name) ? `CAST(${quoteIdent(c.name)} AS ${c.type}) AS ${quoteIdent(c.name)}` : `CAST(NULL AS ${c.type}) AS ${quoteIdent(c.name)}`,
    );
    const extra = PARTITION_COLUMNS.filter((p) => !columns.some((c) => c.name === p) && present.has(p)).map(quoteIdent);
    await db.run(`DROP TABLE ${quoteIdent(table)}`);
    await db.run(`CREATE VIEW ${quoteIdent(table)} AS SELECT ${[...selected, ...extra].join(', ')} FROM ${source}`);
    found.push(table);
  }
  return found;
}

/**
 * After the views exist: the database may read files under the lake folder and nowhere else, no
 * extension is loaded, and the settings cannot be changed back (what `retrace sql --lake` runs cannot reach other files).
 */
export async function lockToLake(db: Database, root: string): Promise<void> {
  await db.run(`SET allowed_directories = [${quoteLiteral(`${root}/`)}]`);
  await db.run(`SET enable_external_access = false`);
  await db.run(`SET autoload_known_extensions = false`);
  await db.run(`SET autoinstall_known_extensions = false`);
  await db.run(`SET lock_configuration = true`);
}
