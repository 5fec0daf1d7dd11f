import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { CompiledQuery, Kysely, sql, SqliteAdapter, SqliteDialect, type DatabaseConnection, type DialectAdapter, type Driver, type SelectQueryBuilder, type SqliteDialectConfig } from 'kysely';
import type { DB } from '../schema.js';
import type { StoreDialect } from './dialect.js';
import { LIMITS } from '../../limits/index.js';
import { registerSqliteFunctions } from './sqlite-functions.js';
import { inlineCheckpoints, threadCheckpoints, WRITER_CHECKPOINT_PAGES, type SqliteCheckpoints } from './sqlite-checkpoints.js';
import { inlineReads, threadReads } from './sqlite-reads.js';
import { sqliteSearch } from './sqlite-search.js';

/**
 * SQLite runs DDL inside transactions, but Kysely's adapter says it does not, so its Migrator applies each
 * statement on its own: a process killed midway through a migration (the first start of a new store) left
 * half a schema, and every later start failed on `table "accounts" already exists`. Claimed true, the
 * pending migrations and their kysely_migration rows commit together or not at all.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * Kysely's SQLite driver opens transactions with a plain BEGIN (deferred). Two processes on one file that
 * both read and then write would then fail to upgrade their locks (SQLITE_BUSY without waiting). BEGIN
 * IMMEDIATE takes the write lock up front, so busy_timeout makes the second writer wait instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly checkpoints: SqliteCheckpoints,
  ) {
    super(config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    const commit = driver.commitTransaction.bind(driver);
    driver.commitTransaction = async (connection: DatabaseConnection) => {
      await commit(connection);
      this.checkpoints.committed();
    };
    return driver;
  }
}

/** How many prepared statements one connection keeps; the queries the services build are far fewer. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 compiles a statement on every prepare(), and Kysely's driver prepares each query anew: on a
 * small tool call that was a tenth of the process's CPU (bench/tool-call.ts, a CPU profile of get_bit). The
 * same SQL text gets the same compiled statement back; a statement runs to completion inside the driver's
 * call (no iterators are left open: the store does not stream), so reusing one is safe.
 */
function withStatementCache(database: Database.Database): { prepare(sql: string): Database.Statement; close(): void } {
  const cache = new Map<string, Database.Statement>();
  return {
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        // Most recently used last, so the oldest is the first key when the cache is full.
        cache.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement;
    },
    close() {
      cache.clear();
      // What SQLite advises before closing a connection that ran queries: statistics refreshed where they drifted.
      if (database.open && !database.inTransaction) database.pragma('optimize');
      database.close();
    },
  };
}

/**
 * The store holds every account's content and the token hashes: only its owner may read it. The directories
 * made for it are 0700 and the database file 0600, created so before SQLite opens it (SQLite's default is
 * 0644, world-readable); SQLite gives the -wal and -shm files the database file's mode. A store made by an
 * earlier version is tightened on open; a directory that existed before is the user's and is left as it is.
 */
export const STORE_DIR_MODE = 0o700;
export const STORE_FILE_MODE = 0o600;

function prepareStoreFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: STORE_DIR_MODE });
  if (!existsSync(file)) closeSync(openSync(file, 'a', STORE_FILE_MODE));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (!existsSync(path)) continue;
    try {
      chmodSync(path, STORE_FILE_MODE);
    } catch (error) {
      // Another user's file that this one may open: theirs to tighten.
      if ((error as { code?: string }).code !== 'EPERM') throw error;
    }
  }
}

export interface SqliteOptions {
  /**
   * Searches on reader threads (sqlite-reads.ts), and WAL checkpoints on a thread of their own
   * (sqlite-checkpoints.ts); serve and stdio ask for it. Not for an in-memory store.
   */
  offThreadReads?: boolean;
  /** How long a search on a reader thread may run, in ms (default LIMITS.statementTimeoutMs). */
  statementTimeoutMs?: number;
}

/** How often a long-lived connection refreshes the planner's statistics. */
const OPTIMIZE_EVERY_MS = 3600_000;

export function sqliteDialect(file: string, options: SqliteOptions = {}): StoreDialect {
  if (file !== ':memory:') prepareStoreFile(file);
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  // WAL with synchronous=FULL: an acknowledged write survives a crash of the process and of the machine.
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 10000');
  registerSqliteFunctions(database);
  // The planner's statistics kept fresh (issue 31: nothing ever ran ANALYZE), as SQLite advises for a long-lived
  // connection: `optimize` analyzes only the tables whose size changed tenfold since, at open and then hourly when
  // no transaction is open on this connection. Each such table is read whole: a sample (analysis_limit) of a store
  // with one account sees one account, one starter and one flow in its first rows, rates every index that starts
  // with account_id alike, and the inbox of one flow then read all that flow's trails instead of the caller's own
  // (5,000 rows at 100k trails; bench/scale.ts). Reading every index of 100k trails took 0.5 s.
  database.pragma('optimize = 0x10002');
  const optimizer = setInterval(() => {
    if (!database.inTransaction && database.open) database.pragma('optimize');
  }, OPTIMIZE_EVERY_MS);
  optimizer.unref();
  const offThread = options.offThreadReads === true && file !== ':memory:';
  const reads = offThread ? threadReads(file, options.statementTimeoutMs ?? LIMITS.statementTimeoutMs) : inlineReads();
  const checkpoints = offThread ? threadCheckpoints(file) : inlineCheckpoints();
  if (offThread) database.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
  return {
    engine: 'sqlite',
    jsonType: 'text',
    createKysely: () => new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }, checkpoints) }),
    // One file handle, no statement timeout: migrations run on the store's own Kysely.
    withMigrationKysely: (queries, work) => work(queries),
    json: (value) => JSON.stringify(value),
    writtenJson: (json) => (typeof json === 'string' ? json : sql`CAST(${Buffer.from(json.buffer, json.byteOffset, json.byteLength)} AS TEXT)`),
    parseJson: <T>(raw: unknown) => (typeof raw === 'string' ? (JSON.parse(raw) as T) : (raw as T)),
    forUpdate: <O>(query: SelectQueryBuilder<DB, keyof DB, O>) => query,
    forNoKeyUpdate: <O>(query: SelectQueryBuilder<DB, keyof DB, O>) => query,
    forKeyShare: <O>(query: SelectQueryBuilder<DB, keyof DB, O>) => query,
    lockKey: async () => {},
    isRetryable: (error) => {
      const code = (error as { code?: string } | null)?.code;
      return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
    },
    isUniqueViolation: (error) => {
      const code = (error as { code?: string } | null)?.code;
      return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
    },
    search: sqliteSearch(reads),
    close: async () => {
      clearInterval(optimizer);
      await Promise.all([reads.close(), checkpoints.close()]);
    },
    // The row of each node's `type` key names the node's own path: the node is read alone from there.
    connectionNodesOf: (bitId) =>
      sql<{ node: unknown }>`SELECT json_extract(b.body, t.path) AS node FROM bits b, json_tree(b.body) t WHERE b.id = ${bitId} AND t.key = 'type' AND t.atom = 'bit-connection'`,
  };
}
