// Writes a SqliteImage to a real SQLite file and reads one back, so a committed opencode.db can be
// compared row by row with a fresh render (file bytes depend on the SQLite build; rows do not).
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { SqliteImage } from './types.js';

export function writeSqlite(path: string, image: SqliteImage): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
  const db = new Database(path);
  try {
    for (const pragma of image.pragmas) db.pragma(pragma);
    db.transaction(() => {
      for (const table of image.tables) {
        db.exec(table.ddl);
        for (const statement of table.alter ?? []) db.exec(statement);
        if (table.rows.length === 0) continue;
        const insert = db.prepare(`INSERT INTO "${table.name}" (${table.columns.map((c) => `"${c}"`).join(', ')}) VALUES (${table.columns.map(() => '?').join(', ')})`);
        for (const row of table.rows) insert.run(...row);
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** Differences between a SQLite file and an image, as readable lines (empty when they match). */
export function diffSqlite(path: string, image: SqliteImage): string[] {
  if (!existsSync(path)) return [`${path}: missing`];
  // Read a copy: opening a WAL database leaves -shm/-wal files beside it.
  const dir = mkdtempSync(join(tmpdir(), 'eval-sqlite-'));
  const copy = join(dir, 'check.db');
  copyFileSync(path, copy);
  const db = new Database(copy, { readonly: true });
  const problems: string[] = [];
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
    const expected = image.tables.map((table) => table.name).sort();
    const found = tables.map((table) => table.name);
    if (JSON.stringify(found) !== JSON.stringify(expected)) problems.push(`${path}: tables ${found.join(', ')} instead of ${expected.join(', ')}`);
    for (const table of image.tables) {
      if (!found.includes(table.name)) continue;
      const columns = (db.prepare(`PRAGMA table_info("${table.name}")`).all() as { name: string }[]).map((column) => column.name);
      if (JSON.stringify(columns) !== JSON.stringify(table.columns)) {
        problems.push(`${path}: ${table.name} has columns ${columns.join(', ')}, a fresh render ${table.columns.join(', ')}`);
        continue;
      }
      const rows = db.prepare(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table.name}" ORDER BY rowid`).raw().all();
      if (JSON.stringify(rows) !== JSON.stringify(table.rows)) problems.push(`${path}: rows of ${table.name} differ from a fresh render`);
    }
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return problems;
}
