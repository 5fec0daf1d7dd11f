import { createRequire } from 'node:module';
import type pg from 'pg';
import { Kysely, PostgresDialect, sql, type PostgresCursor, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult, type SelectQueryBuilder } from 'kysely';
import { LIMITS } from '../../limits/index.js';
import type { DB } from '../schema.js';
import { queryTimeout, type StoreDialect } from './dialect.js';
import { postgresSearch } from './postgres-search.js';

/**
 * pg is loaded when a PostgreSQL store is opened, not when this module is: `waymark stdio` on the embedded store
 * (what a desktop client launches) does not pay for it at every start.
 */
function loadPg(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}

/** serialization_failure, deadlock_detected: PostgreSQL asks the client to run the transaction again. */
const RETRYABLE = new Set(['40001', '40P01']);
/** query_canceled: what a statement that ran past statement_timeout fails with. */
const QUERY_CANCELED = '57014';

export interface PostgresOptions {
  /** statement_timeout of every query connection, in ms (default LIMITS.statementTimeoutMs). */
  statementTimeoutMs?: number;
  /** Connections of this process's pool (default 10; WAYMARK_PG_POOL_SIZE). */
  poolSize?: number;
}

/**
 * A pooled client as Kysely sees it, with a statement cancelled by statement_timeout turned into QUERY_TIMEOUT:
 * a statement that runs long (issue 16: one search took 16.5 s and twelve held the pool) is stopped and answered
 * with a code, never INTERNAL_ERROR. Kysely passes a cursor only to stream, which the store never does.
 */
class TimeoutMappingClient implements PostgresPoolClient {
  constructor(
    private readonly client: pg.PoolClient,
    private readonly timeoutMs: number,
  ) {}

  query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sqlOrCursor: string | PostgresCursor<R>, parameters?: readonly unknown[]): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') throw new Error('the store does not stream query results');
    return this.client.query(sqlOrCursor, parameters as unknown[]).then(
      (result) => result as PostgresQueryResult<R>,
      (error: unknown) => {
        throw (error as { code?: string } | null)?.code === QUERY_CANCELED ? queryTimeout(this.timeoutMs) : error;
      },
    );
  }

  release(): void {
    this.client.release();
  }
}

function mappingTimeouts(pool: pg.Pool, timeoutMs: number): PostgresPool {
  return {
    connect: async () => new TimeoutMappingClient(await pool.connect(), timeoutMs),
    end: () => pool.end(),
  };
}

export function postgresDialect(url: string, options: PostgresOptions = {}): StoreDialect {
  const timeoutMs = options.statementTimeoutMs ?? LIMITS.statementTimeoutMs;
  const { Pool } = loadPg();
  const pool = new Pool({ connectionString: url, max: options.poolSize ?? 10, statement_timeout: timeoutMs });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return {
    engine: 'postgres',
    jsonType: 'jsonb',
    createKysely: () => new Kysely<DB>({ dialect: new PostgresDialect({ pool: mappingTimeouts(pool, timeoutMs) }) }),
    // Migrations rebuild indexes and rewrite every row, which may rightly take longer than any one request:
    // their own connection, without the statement timeout, closed when they are done.
    async withMigrationKysely(_queries, work) {
      const own = new (loadPg().Pool)({ connectionString: url, max: 1 });
      own.on('error', () => undefined);
      const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: own }) });
      try {
        return await work(db);
      } finally {
        await db.destroy();
      }
    },
    json: (value) => JSON.stringify(value),
    // The bytes from a conversion thread go as they are (a bytea parameter, copied once into the message) and
    // the server reads them as UTF-8 text: as a string they were decoded here and encoded again by pg, 40–80 ms
    // of the event loop for a near-limit body (issue 24, finding 10).
    writtenJson: (json) => (typeof json === 'string' ? json : sql`convert_from(${Buffer.from(json.buffer, json.byteOffset, json.byteLength)}, 'UTF8')::jsonb`),
    // pg parses jsonb itself; a string here is one of our own encoded values (dialect.json) not yet stored.
    // Stored documents are always objects or arrays, never bare strings.
    parseJson: <T>(raw: unknown) => (typeof raw === 'string' ? (JSON.parse(raw) as T) : (raw as T)),
    forUpdate: <O>(query: SelectQueryBuilder<DB, keyof DB, O>) => query.forUpdate(),
    forNoKeyUpdate: <O>(query: SelectQueryBuilder<DB, keyof DB, O>) => query.forNoKeyUpdate(),
    forKeyShare: <O>(query: SelectQueryBuilder<DB, keyof DB, O>) => query.forKeyShare(),
    lockKey: async (tx, key) => {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(tx);
    },
    isRetryable: (error) => RETRYABLE.has((error as { code?: string } | null)?.code ?? ''),
    isUniqueViolation: (error) => (error as { code?: string } | null)?.code === '23505',
    search: postgresSearch,
    // Its pool ends with Kysely's destroy.
    close: async () => undefined,
    // strict: lax mode's `.**` also unwraps arrays, and would find each node more than once.
    connectionNodesOf: (bitId) => sql<{ node: unknown }>`SELECT jsonb_path_query(body, 'strict $.**?(@.type == "bit-connection")') AS node FROM bits WHERE id = ${bitId}`,
  };
}
