import { existsSync, mkdirSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBInstance, StatementType, type DuckDBConnection, type DuckDBValue } from './duckdb-api.js';
import { describeOpenFailure, QueryError, StoreError } from './errors.js';
import { LATEST_SCHEMA_VERSION } from './schema-version.js';
import { rowsFromColumns, type Row } from './values.js';

export interface OpenOptions {
  /** Open for reading only: several readers may share the file, and nothing can change it. */
  readOnly?: boolean;
  /**
   * With `readOnly`: open the store as it is, never bringing an older or half-created one up to
   * date first (a reader that reports the schema, `retrace doctor`, must not write to learn it).
   */
  asIs?: boolean;
  /** DuckDB memory limit, e.g. '512MB'. */
  memoryLimit?: string;
  /**
   * For queries a user types (`retrace sql`): no extension is installed or loaded, the
   * configuration is locked so no statement can undo this, and no file but the store is read
   * unless `allowFiles`. DuckDB's own settings, checked against 1.5: `enable_external_access`,
   * `autoload_known_extensions`, `autoinstall_known_extensions`, `lock_configuration`.
   */
  lockedDown?: { allowFiles: boolean };
  /**
   * How long to wait for another process's lock on the file to go (default 3 s): a TUI holds the
   * store only for a moment while it reads, and an ingest started then should wait, not fail.
   */
  lockWaitMs?: number;
}

const DEFAULT_LOCK_WAIT_MS = 3_000;

/** DuckDB's words for "another process holds this file". */
function isLockConflict(error: unknown): boolean {
  return /Conflicting lock|Could not set lock|lock on file/i.test(error instanceof Error ? error.message : String(error));
}

export interface QueryResult {
  columns: string[];
  rows: Row[];
}

export interface SingleStatementOptions {
  /** Says why a statement of this type may not run, or null when it may. */
  refuse: (type: StatementType) => string | null;
  /** Interrupts the statement after this long. */
  timeoutMs?: number;
}

/**
 * DuckDB's memory limit for bulk writes (ingest, derive). By default DuckDB may cache up to 80% of
 * RAM; a bounded cache keeps a long ingest's footprint small at little cost in speed (measured on
 * a 300 MB transcript: 589 MB peak RSS and 6.5 s unbounded, 447 MB and 6.7 s at 128 MB).
 */
export const BULK_WRITE_MEMORY_LIMIT = '128MB';

export type SqlParams = DuckDBValue[] | Record<string, DuckDBValue>;

type SchemaState = 'current' | 'outdated' | 'empty';

/**
 * One retrace store: a DuckDB file with retrace's schema. One instance and one connection per
 * Store; queries on it never overlap (DuckDB connections are not for concurrent use).
 */
export class Database {
  private queue: Promise<unknown> = Promise.resolve();
  /** Statements queued or running: closing under one of them crashes the process (DuckDB frees what it reads). */
  private inFlight = 0;
  private closing: Promise<void> | null = null;

  private constructor(
    readonly path: string,
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
    readonly readOnly: boolean,
    /** Set for a lake (a Parquet dataset read through views): only queries that read are run. */
    readonly lake: boolean = false,
    /** A second connection to another Database's instance ({@link connectAnother}): closing it leaves the instance open. */
    private readonly ownsInstance: boolean = true,
  ) {}

  /**
   * Another connection to the same open store, with its own queue and transactions, for work
   * that runs beside this connection's (derive beside ingest). DuckDB keeps the two apart by
   * MVCC: each sees what the other committed. Close it before this one.
   */
  async connectAnother(): Promise<Database> {
    if (this.closing) throw new StoreError(`${this.path} is closed`);
    return new Database(this.path, this.instance, await this.instance.connect(), this.readOnly, this.lake, false);
  }

  /**
   * A lake (a folder `retrace push` writes) opened as a read-only store: an in-memory DuckDB with
   * views named like the store's tables over the Parquet files, then locked so it can read files
   * under that folder only. Nothing is ever written to the folder through it.
   */
  static async openLake(dir: string, options: { memoryLimit?: string } = {}): Promise<Database> {
    // Loaded here and in `open` only when needed: a read-only open of a current store needs neither.
    const [{ assertLakeFolder, createLakeViews, lockToLake }, { migrate }] = await Promise.all([import('./lake/views.js'), import('./migrations.js')]);
    const root = assertLakeFolder(dir);
    const instance = await DuckDBInstance.create(':memory:', options.memoryLimit ? { memory_limit: options.memoryLimit } : {});
    const connection = await instance.connect();
    const database = new Database(root, instance, connection, true, true);
    try {
      await migrate(database);
      await createLakeViews(database, root);
      await lockToLake(database, root);
    } catch (error) {
      await database.close();
      throw error instanceof StoreError ? error : new StoreError(`cannot read the lake at ${root}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return database;
  }

  static async open(path: string, options: OpenOptions = {}): Promise<Database> {
    const readOnly = options.readOnly ?? false;
    if (readOnly && path !== ':memory:' && !existsSync(path)) {
      throw new StoreError(`no store at ${path}: run \`retrace ingest\` first (or pass --db FILE)`);
    }
    const asIs = readOnly && options.asIs === true;
    if (path !== ':memory:' && interruptedCreation(path)) {
      if (asIs) throw new StoreError(`${path} is an empty file: a store whose creation was interrupted (the next \`retrace ingest\` creates it again)`);
      if (readOnly) return Database.reopenUpgraded(path, options);
      unlinkSync(path);
    }
    if (!readOnly && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const settings: Record<string, string> = {};
    if (readOnly) settings['access_mode'] = 'READ_ONLY';
    if (options.memoryLimit) settings['memory_limit'] = options.memoryLimit;
    if (options.lockedDown) {
      settings['enable_external_access'] = String(options.lockedDown.allowFiles);
      settings['autoload_known_extensions'] = 'false';
      settings['autoinstall_known_extensions'] = 'false';
      settings['allow_community_extensions'] = 'false';
      settings['lock_configuration'] = 'true';
    }
    let instance: DuckDBInstance | null = null;
    const deadline = Date.now() + (options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS);
    // Tries often: a TUI or a live replay lets go of the store for a few hundred milliseconds at a time.
    for (let delay = 25; instance === null; delay = Math.min(delay * 2, 100)) {
      try {
        instance = await DuckDBInstance.create(path, settings);
      } catch (error) {
        if (!isLockConflict(error) || Date.now() + delay > deadline) throw describeOpenFailure(path, error);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    const connection = await instance.connect();
    const database = new Database(path, instance, connection, readOnly);
    let schema: SchemaState;
    try {
      if (!readOnly) await (await import('./migrations.js')).migrate(database);
      schema = readOnly ? await database.schemaState() : 'current';
    } catch (error) {
      await database.close();
      throw error;
    }
    if (schema === 'current' || asIs) return database;
    await database.close();
    return Database.reopenUpgraded(path, options);
  }

  /**
   * A store with no schema yet (its creation was interrupted) or an older one: a reader cannot
   * migrate, so it is brought up to date through a short read-write open first.
   */
  private static async reopenUpgraded(path: string, options: OpenOptions): Promise<Database> {
    await (await Database.open(path, { memoryLimit: options.memoryLimit })).close();
    return Database.open(path, options);
  }

  /** Runs statements one after another on the single connection. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    if (this.closing) return Promise.reject(new StoreError(`${this.path} is closed`));
    this.inFlight += 1;
    const next = this.queue.then(task, task).finally(() => (this.inFlight -= 1));
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
      return rowsFromColumns(reader.deduplicatedColumnNames(), reader.getColumnsJS());
    });
  }

  /**
   * Runs `sql` only if DuckDB's own parser finds exactly one statement in it and `refuse` accepts
   * its type: the statement is prepared (parsed and bound) first, so what is judged is what runs.
   */
  async querySingleStatement(sql: string, options: SingleStatementOptions): Promise<QueryResult> {
    return this.serial(async () => {
      if (sql.trim() === '') throw new QueryError('refused', 'no statement to run');
      let extracted;
      try {
        extracted = await this.connection.extractStatements(sql);
      } catch (error) {
        throw new QueryError('invalid', messageOf(error), { cause: error });
      }
      if (extracted.count !== 1) {
        throw new QueryError('refused', extracted.count === 0 ? 'no statement to run' : `one statement at a time (found ${extracted.count})`);
      }
      let prepared;
      try {
        prepared = await extracted.prepare(0);
      } catch (error) {
        throw new QueryError(/^Permission Error/.test(messageOf(error)) ? 'refused' : 'invalid', messageOf(error), { cause: error });
      }
      try {
        const refusal = options.refuse(prepared.statementType);
        if (refusal) throw new QueryError('refused', refusal);
        let timedOut = false;
        const timer = options.timeoutMs === undefined ? null : setTimeout(() => {
          timedOut = true;
          this.connection.interrupt();
        }, options.timeoutMs);
        try {
          const reader = await prepared.runAndReadAll();
          return { columns: reader.columnNames(), rows: rowsFromColumns(reader.deduplicatedColumnNames(), reader.getColumnsJS()) };
        } catch (error) {
          if (timedOut) throw new QueryError('timeout', `stopped after ${Math.round((options.timeoutMs ?? 0) / 1000)} s`, { cause: error });
          throw new QueryError('failed', messageOf(error), { cause: error });
        } finally {
          if (timer) clearTimeout(timer);
        }
      } finally {
        prepared.destroySync();
      }
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

  /** Whether a store opened read-only can be read as it is; throws for a DuckDB file that is not a store. */
  private async schemaState(): Promise<SchemaState> {
    // A store answers with its version in one point query; the catalog is read only when that fails.
    const version = await this.schemaVersion().catch(() => null);
    if (version !== null) return version < LATEST_SCHEMA_VERSION ? 'outdated' : 'current';
    const tables = (await this.all(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'`)).map((row) => String(row['table_name']));
    if (tables.length === 0) return 'empty';
    if (!tables.includes('retrace_meta')) throw new StoreError(`${this.path} is a DuckDB file but not a retrace store (no retrace_meta table)`);
    return (await this.schemaVersion()) < LATEST_SCHEMA_VERSION ? 'outdated' : 'current';
  }

  /**
   * Closes the store: at once when nothing is running, else after the statements already queued
   * (a TUI's last refresh can still be reading when its command ends). New statements are refused.
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    const closeNow = () => {
      try {
        this.connection.closeSync();
      } finally {
        if (this.ownsInstance) this.instance.closeSync();
      }
    };
    if (this.inFlight === 0) {
      // Closed even if DuckDB's close throws: nothing more may run on it.
      this.closing = Promise.resolve();
      closeNow();
    } else {
      this.closing = this.queue.then(closeNow);
    }
    return this.closing;
  }
}

/** An empty file with no WAL: DuckDB was killed between creating the file and writing its header. */
function interruptedCreation(path: string): boolean {
  const info = statSync(path, { throwIfNoEntry: false });
  return info !== undefined && info.isFile() && info.size === 0 && !existsSync(`${path}.wal`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The name DuckDB gives a statement type (`COPY`, `PRAGMA`…), for messages. */
export function statementTypeName(type: StatementType): string {
  return StatementType[type] ?? `statement type ${type}`;
}

export { StatementType };

/** Opens, runs `work`, and always closes. */
export async function withDatabase<T>(path: string, options: OpenOptions, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await Database.open(path, options);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}
