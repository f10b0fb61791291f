import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { describeOpenFailure, StoreError } from './errors.js';
import { migrate } from './migrations.js';
import { toRow, type Row } from './values.js';

export interface OpenOptions {
  /** Open for reading only: several readers may share the file, and nothing can change it. */
  readOnly?: boolean;
  /** DuckDB memory limit, e.g. '512MB'. */
  memoryLimit?: string;
}

/**
 * DuckDB's memory limit for bulk writes (ingest, derive). By default DuckDB may cache up to 80% of
 * RAM; a bounded cache keeps a long ingest's footprint small at little cost in speed (measured on
 * a 300 MB transcript: 589 MB peak RSS and 6.5 s unbounded, 447 MB and 6.7 s at 128 MB).
 */
export const BULK_WRITE_MEMORY_LIMIT = '128MB';

export type SqlParams = DuckDBValue[] | Record<string, DuckDBValue>;

/**
 * One retrace store: a DuckDB file with retrace's schema. One instance and one connection per
 * Store; queries on it never overlap (DuckDB connections are not for concurrent use).
 */
export class Database {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly path: string,
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
    readonly readOnly: boolean,
  ) {}

  static async open(path: string, options: OpenOptions = {}): Promise<Database> {
    const readOnly = options.readOnly ?? false;
    if (readOnly && path !== ':memory:' && !existsSync(path)) {
      throw new StoreError(`no store at ${path}: run \`retrace ingest\` first (or pass --db FILE)`);
    }
    if (!readOnly && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const settings: Record<string, string> = {};
    if (readOnly) settings['access_mode'] = 'READ_ONLY';
    if (options.memoryLimit) settings['memory_limit'] = options.memoryLimit;
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(path, settings);
    } catch (error) {
      throw describeOpenFailure(path, error);
    }
    const connection = await instance.connect();
    const database = new Database(path, instance, connection, readOnly);
    try {
      if (!readOnly) await migrate(database);
      else await database.assertSchema();
    } catch (error) {
      database.close();
      throw error;
    }
    return database;
  }

  /** Runs statements one after another on the single connection. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async run(sql: string, params?: SqlParams): Promise<number> {
    return this.serial(async () => {
      const result = await this.connection.run(sql, params);
      return Number(result.rowsChanged);
    });
  }

  async all(sql: string, params?: SqlParams): Promise<Row[]> {
    return this.serial(async () => {
      const reader = await this.connection.runAndReadAll(sql, params);
      return reader.getRowObjectsJS().map(toRow);
    });
  }

  /** Column names and JSON rows of an arbitrary query (for `retrace sql`). */
  async query(sql: string): Promise<{ columns: string[]; rows: Row[] }> {
    return this.serial(async () => {
      const reader = await this.connection.runAndReadAll(sql);
      return { columns: reader.columnNames(), rows: reader.getRowObjectsJS().map(toRow) };
    });
  }

  async one(sql: string, params?: SqlParams): Promise<Row | undefined> {
    return (await this.all(sql, params))[0];
  }

  async scalar(sql: string, params?: SqlParams): Promise<unknown> {
    const row = await this.one(sql, params);
    return row ? Object.values(row)[0] : undefined;
  }

  async schemaVersion(): Promise<number> {
    const value = await this.scalar(`SELECT value FROM retrace_meta WHERE key = 'schema_version'`);
    return Number(value ?? 0);
  }

  private async assertSchema(): Promise<void> {
    const tables = await this.all(`SELECT table_name FROM information_schema.tables WHERE table_name = 'retrace_meta'`);
    if (tables.length === 0) throw new StoreError(`${this.path} is a DuckDB file but not a retrace store (no retrace_meta table)`);
  }

  close(): void {
    try {
      this.connection.closeSync();
    } finally {
      this.instance.closeSync();
    }
  }
}

/** Opens, runs `work`, and always closes. */
export async function withDatabase<T>(path: string, options: OpenOptions, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await Database.open(path, options);
  try {
    return await work(db);
  } finally {
    db.close();
  }
}
