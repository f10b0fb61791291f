import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBInstance, StatementType, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { describeOpenFailure, StoreError } from './errors.js';
import { assertLakeFolder, createLakeViews, lockToLake } from './lake/views.js';
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
    /** Set for a lake (a Parquet dataset read through views): only queries that read are run. */
    readonly lake: boolean = false,
  ) {}

  /**
   * A lake (a folder `retrace push` writes) opened as a read-only store: an in-memory DuckDB with
   * views named like the store's tables over the Parquet files, then locked so it can read files
   * under that folder only. Nothing is ever written to the folder through it.
   */
  static async openLake(dir: string): Promise<Database> {
    const root = assertLakeFolder(dir);
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const database = new Database(root, instance, connection, true, true);
    try {
      await migrate(database);
      await createLakeViews(database, root);
      await lockToLake(database, root);
    } catch (error) {
      database.close();
      throw error instanceof StoreError ? error : new StoreError(`cannot read the lake at ${root}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return database;
  }

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
      if (this.lake) await this.assertOnlyReads(sql);
      const reader = await this.connection.runAndReadAll(sql);
      return { columns: reader.columnNames(), rows: reader.getRowObjectsJS().map(toRow) };
    });
  }

  /** A lake's folder is shared: `COPY … TO` or `EXPORT` into it must not run, nor anything else that is not a query. */
  private async assertOnlyReads(sql: string): Promise<void> {
    const statements = await this.connection.extractStatements(sql);
    for (let index = 0; index < statements.count; index += 1) {
      const prepared = await statements.prepare(index);
      try {
        if (prepared.statementType !== StatementType.SELECT && prepared.statementType !== StatementType.EXPLAIN) {
          throw new StoreError(`a lake is read-only: statement ${index + 1} is not a query (${StatementType[prepared.statementType]})`);
        }
      } finally {
        prepared.destroySync();
      }
    }
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
