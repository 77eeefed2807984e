import type pg from 'pg';

/**
 * The one place `pg` (node-postgres) is used: a pool of connections to one PostgreSQL database, with the few
 * things the journal (and the fleet's rate limit, src/fleet/rate-limit/) need from it: a query, and a
 * transaction on one connection that commits or rolls back as a whole.
 */
export interface SqlQuery {
  query<R extends object = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
  ): Promise<{ rows: R[]; rowCount: number }>;
}

/** A pool: queries on any connection, transactions on one. */
export interface SqlPool extends SqlQuery {
  /**
   * Runs `work` inside BEGIN … COMMIT on one connection; ROLLBACK when it throws (the error is passed on). A
   * commit that returns is durable: the transaction runs with synchronous_commit on.
   */
  transaction<T>(work: (tx: SqlQuery) => Promise<T>): Promise<T>;
  /** Where it connects, without a password (for messages). */
  readonly where: string;
  /** Closes every connection. Safe to call twice. */
  end(): Promise<void>;
}

/** True for a connection URL this backend takes: postgres://… or postgresql://… */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text);
}

/** The URL with any password replaced by ***: connection strings reach messages and logs only like this. */
export function describePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(an unreadable URL)';
  }
}

/**
 * bigint (int8) columns as numbers: the journal's values (epoch ms, counters, seq) stay far below 2^53.
 * `pg` is loaded with the first pool: a run on a SQLite journal should not pay for importing it.
 */
const INT8_OID = 20;
function int8AsNumber(lib: typeof pg): { getTypeParser: typeof pg.types.getTypeParser } {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID && format !== 'binary'
        ? (value: string) => Number(value)
        : lib.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
}

export interface SqlPoolOptions {
  /** Connections at most (default 10). */
  readonly max?: number;
  /** Said in pg_stat_activity (default `recipe`). */
  readonly applicationName?: string;
}

/**
 * Opens a pool on `url` and checks that the database answers (the first connection is made now, so a wrong
 * URL or a database that is down fails here, with PostgreSQL's reason, not at the first append).
 */
export async function openSqlPool(url: string, options: SqlPoolOptions = {}): Promise<SqlPool> {
  if (!isPostgresUrl(url)) throw new Error(`not a PostgreSQL URL (postgres://… or postgresql://…)`);
  const { default: lib } = await import('pg');
  const pool = new lib.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'recipe',
    types: int8AsNumber(lib),
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // A connection that breaks while idle (PostgreSQL restarted, a network cut) is dropped from the pool, and the
  // next query opens a new one; without this listener node-postgres would end the process.
  pool.on('error', () => undefined);
  const sql = new PgPool(pool, describePostgresUrl(url));
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await sql.end();
    throw err;
  }
  return sql;
}

class PgPool implements SqlPool {
  private ended: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    readonly where: string,
  ) {}

  async query<R extends object>(
    text: string,
    params: readonly unknown[] = [],
  ): Promise<{ rows: R[]; rowCount: number }> {
    const r = await this.pool.query<R>(text, params as unknown[]);
    return { rows: r.rows, rowCount: r.rowCount ?? 0 };
  }

  async transaction<T>(work: (tx: SqlQuery) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A client that errors while checked out (the server went away) must not crash the process either.
    const onError = (): void => undefined;
    client.on('error', onError);
    let broken: Error | undefined;
    try {
      // A transaction that returns is on disk whatever the server's, database's or role's default says (no
      // startup option: those do not pass through every pooler); append_batch (schema.ts) does the same.
      await client.query('BEGIN; SET LOCAL synchronous_commit TO on');
      const tx: SqlQuery = {
        query: async <R extends object>(text: string, params: readonly unknown[] = []) => {
          const r = await client.query<R>(text, params as unknown[]);
          return { rows: r.rows, rowCount: r.rowCount ?? 0 };
        },
      };
      const result = await work(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // The connection is gone: it goes from the pool instead of back into it.
        broken = rollbackError as Error;
      }
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  end(): Promise<void> {
    return (this.ended ??= this.pool.end().catch(() => undefined));
  }
}
