import { Redis } from 'ioredis';
import pg from 'pg';
import type { FleetStore } from '../../src/fleet/fleet-store.js';
import { openFleetJournal } from '../../src/fleet/redis.js';
import { openPostgresFleetJournal } from '../../src/fleet/postgres-journal.js';
import type { JournalStore } from '../../src/journal/index.js';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.js';
import { startRedisServer } from '../helpers/redis-server.js';

/** The fleet's two stores: every fleet test that does not test one store's own behaviour runs on both. */
export const STORE_KINDS = ['redis', 'postgres'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** A real store server for a fleet test (redis-server or PostgreSQL from a temporary directory). */
export interface TestStore {
  readonly kind: StoreKind;
  readonly store: FleetStore;
  /** The flag that names it: ['--redis', url] or ['--postgres', url]. */
  readonly flag: readonly [string, string];
  /** The environment variable that names it, for `recipe` processes. */
  readonly env: Record<string, string>;
  /** The fleet's journal of a queue, read from the test (closed by the caller). */
  openJournal(queue: string, recipesDir?: string): Promise<JournalStore>;
  /** True when any value the store holds contains `text` (a secret must never be there). */
  holds(text: string): Promise<boolean>;
  /** PostgreSQL only: the server, for kill9/restart. */
  readonly postgres?: PostgresServer;
  stop(): Promise<void>;
}

export async function startTestStore(kind: StoreKind): Promise<TestStore> {
  if (kind === 'redis') {
    const server = await startRedisServer();
    const commands = new Redis(server.url, { maxRetriesPerRequest: 3 });
    commands.on('error', () => undefined);
    const journals: JournalStore[] = [];
    return {
      kind,
      store: { kind, url: server.url },
      flag: ['--redis', server.url],
      env: { RECIPE_REDIS_URL: server.url },
      openJournal: (queue, recipesDir) => {
        const j = openFleetJournal(commands, { queue, ...(recipesDir ? { recipesDir } : {}) });
        journals.push(j);
        return Promise.resolve(j);
      },
      holds: (text) => redisHolds(commands, text),
      stop: async () => {
        commands.disconnect();
        await server.stop();
      },
    };
  }
  const server = await startPostgresServer();
  return {
    kind,
    store: { kind, url: server.url },
    flag: ['--postgres', server.url],
    env: { RECIPE_POSTGRES_URL: server.url },
    openJournal: (queue, recipesDir) =>
      openPostgresFleetJournal(server.url, { queue, ...(recipesDir ? { recipesDir } : {}) }),
    holds: (text) => postgresHolds(server.url, text),
    postgres: server,
    stop: () => server.stop(),
  };
}

async function redisHolds(redis: Redis, text: string): Promise<boolean> {
  const keys = await redis.keys('*');
  for (const key of keys) {
    const type = await redis.type(key);
    let values: unknown;
    if (type === 'string') values = await redis.get(key);
    else if (type === 'hash') values = await redis.hgetall(key);
    else if (type === 'set') values = await redis.smembers(key);
    else if (type === 'zset') values = await redis.zrange(key, 0, -1);
    else if (type === 'list') values = await redis.lrange(key, 0, -1);
    else if (type === 'stream') values = await redis.xrange(key, '-', '+');
    // A key that expired or was deleted since KEYS (a lock, a worker's heartbeat) has type `none`: nothing to read.
    if (values !== undefined && values !== null && JSON.stringify(values).includes(text)) return true;
  }
  return false;
}

/** Every row of every table outside PostgreSQL's own schemas, as text. */
async function postgresHolds(url: string, text: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ s: string; t: string }>(
      `SELECT table_schema AS s, table_name AS t FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    if (tables.rows.length === 0) throw new Error('no tables: the fleet wrote nothing to PostgreSQL?');
    for (const { s, t } of tables.rows) {
      const rows = await client.query<{ row: string }>(`SELECT row_to_json(x)::text AS row FROM "${s}"."${t}" x`);
      if (rows.rows.some((r) => r.row.includes(text))) return true;
    }
    return false;
  } finally {
    await client.end();
  }
}
