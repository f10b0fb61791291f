import type { Database } from './database.js';
import { StoreError } from './errors.js';
import { LATEST_SCHEMA_VERSION } from './schema-version.js';
import { CORE_SCHEMA } from './schema/core.js';
import { DERIVE_FINGERPRINT_SCHEMA } from './schema/derive-fingerprint.js';
import { DERIVED_SCHEMA } from './schema/derived.js';
import { FILE_STAMPS_SCHEMA } from './schema/file-stamps.js';
import { HONEST_RUNS_SCHEMA } from './schema/honest-runs.js';
import { PROVENANCE_SCHEMA } from './schema/provenance.js';
import { RUNS_SCHEMA } from './schema/runs.js';
import { RUN_WAITING_SCHEMA } from './schema/run-waiting.js';

/** A schema step: applied once, in order, inside one transaction with the version bump. */
export interface Migration {
  version: number;
  description: string;
  statements: readonly string[];
}

/** Every migration retrace has shipped; append only, never edit one that has been released. */
export const MIGRATIONS: readonly Migration[] = [CORE_SCHEMA, DERIVED_SCHEMA, RUNS_SCHEMA, DERIVE_FINGERPRINT_SCHEMA, HONEST_RUNS_SCHEMA, PROVENANCE_SCHEMA, FILE_STAMPS_SCHEMA, RUN_WAITING_SCHEMA];

export { LATEST_SCHEMA_VERSION };

if (MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0) !== LATEST_SCHEMA_VERSION) {
  throw new Error(`schema-version.ts says ${LATEST_SCHEMA_VERSION}, the last migration is another: update it with the migration`);
}

/**
 * Brings the store to the latest schema in one transaction, the `retrace_meta` table included: a
 * process killed at any point leaves either no schema at all or the whole of it, never a store
 * that has `retrace_meta` but no `tool_calls` (which read as a store and then failed every query).
 */
export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number> {
  const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  await db.run('BEGIN TRANSACTION');
  let applying: Migration | null = null;
  try {
    await db.run(`CREATE TABLE IF NOT EXISTS retrace_meta (key VARCHAR PRIMARY KEY, value VARCHAR)`);
    const current = await db.schemaVersion();
    if (current > latest) {
      throw new StoreError(
        `${db.path} has schema version ${current}, newer than this retrace understands (${latest}); upgrade retrace`,
      );
    }
    for (const migration of migrations.filter((m) => m.version > current).sort((a, b) => a.version - b.version)) {
      applying = migration;
      for (const statement of migration.statements) await db.run(statement);
      await db.run(`INSERT OR REPLACE INTO retrace_meta VALUES ('schema_version', ?)`, [String(migration.version)]);
    }
    await db.run('COMMIT');
  } catch (error) {
    await db.run('ROLLBACK').catch(() => undefined);
    if (error instanceof StoreError || !applying) throw error;
    throw new StoreError(`migrating ${db.path} to schema ${applying.version} (${applying.description}) failed: ${String(error)}`, {
      cause: error,
    });
  }
  return latest;
}
