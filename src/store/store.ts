import { resolve } from 'node:path';
import { Migrator, sql, type Kysely, type MigrationResultSet, type Transaction } from 'kysely';
import type { StoreDialect } from './dialects/dialect.js';
import { redactUrl } from '../redact.js';
import { postgresDialect } from './dialects/postgres.js';
import { sqliteDialect } from './dialects/sqlite.js';
import { migrations } from './migrations/index.js';
import type { DB } from './schema.js';

export type Tx = Transaction<DB>;
export type Db = Kysely<DB>;

export interface Store {
  readonly db: Db;
  readonly dialect: StoreDialect;
  /** Where the data lives, for humans: a file path or the PostgreSQL URL without its secrets (redactUrl). */
  readonly location: string;
  /**
   * Runs `work` in one transaction, running it again when the engine reports a transient conflict
   * (deadlock, serialization failure, busy file). `work` must therefore have no effect outside the store.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  migrate(): Promise<MigrationResultSet>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** `postgres://…` selects PostgreSQL; unset selects the embedded store. */
  databaseUrl?: string;
  /** The embedded store's directory; default `./.waymark`. */
  dataDir?: string;
  /**
   * The longest a statement may run, in ms (default LIMITS.statementTimeoutMs): PostgreSQL's statement_timeout
   * of query connections (migrations have none); on the embedded store, a search on a reader thread.
   */
  statementTimeoutMs?: number;
  /** The embedded store runs its searches on reader threads (store/dialects/sqlite-reads.ts): what a server wants. */
  offThreadReads?: boolean;
  /**
   * PostgreSQL: connections of this process's pool (default 10). With N processes on one server the total is N
   * times this; keep it within the server's max_connections.
   */
  poolSize?: number;
}

const MAX_ATTEMPTS = 8;

export function storeOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): StoreOptions {
  const poolText = env.WAYMARK_PG_POOL_SIZE;
  const poolSize = poolText ? Number(poolText) : undefined;
  if (poolSize !== undefined && (!Number.isInteger(poolSize) || poolSize < 1 || poolSize > 1000)) {
    throw new Error(`WAYMARK_PG_POOL_SIZE must be a whole number from 1 to 1000 (got ${poolText})`);
  }
  return { databaseUrl: env.WAYMARK_DATABASE_URL || undefined, dataDir: env.WAYMARK_DATA_DIR || undefined, poolSize };
}

export function openStore(options: StoreOptions = {}): Store {
  let dialect: StoreDialect;
  let location: string;
  const url = options.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    dialect = postgresDialect(url, { statementTimeoutMs: options.statementTimeoutMs, poolSize: options.poolSize });
    location = redactUrl(url);
  } else if (url) {
    throw new Error(`WAYMARK_DATABASE_URL must be a postgres:// URL (got '${url.split(':')[0]}:…'); unset it for the embedded store`);
  } else {
    location = resolve(options.dataDir ?? '.waymark', 'waymark.db');
    dialect = sqliteDialect(location, { offThreadReads: options.offThreadReads, statementTimeoutMs: options.statementTimeoutMs });
  }
  const db = dialect.createKysely();
  return {
    db,
    dialect,
    location,
    async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction().execute(work);
        } catch (error) {
          if (attempt >= MAX_ATTEMPTS || !dialect.isRetryable(error)) throw error;
          await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
        }
      }
    },
    async migrate() {
      // Branches number their migrations apart and merge in any order (009 can land after 010 and 011 ran on a
      // store): a missing earlier one is applied, not refused as a corrupted history.
      return dialect.withMigrationKysely(db, async (migrationDb) => {
        const migrator = new Migrator({ db: migrationDb, provider: { getMigrations: async () => migrations(dialect) }, allowUnorderedMigrations: true });
        const result = await migrator.migrateToLatest();
        if (result.error) throw result.error;
        // Migrations add indexes and fill columns: the planner's statistics are refreshed with them (issue 31), on
        // the migrations' connection (no statement timeout).
        if ((result.results ?? []).length > 0) await sql`ANALYZE`.execute(migrationDb);
        return result;
      });
    },
    async close() {
      // Kysely's destroy closes the SQLite handle or ends the pg pool.
      await Promise.all([db.destroy(), dialect.close()]);
    },
  };
}
