import { FlowProducer, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { RecipeError } from '../errors/index.js';
import { RedisJournalStore, type RedisCommands } from '../journal/index.js';
import { JOURNAL_PREFIX } from './job.js';
import { checkedStore, redactUrl } from './fleet-store.js';
import { FleetRateLimiter } from './rate-limit/index.js';
import { redisRegistry } from './redis-registry.js';
import { listen } from './worker-events.js';
import type { FleetJournalOptions, FleetKv, StoreConnections } from './store-connections.js';

/**
 * Connections to the fleet's Redis. Both reconnect for as long as it takes (a Redis restart must not end a
 * worker). BullMQ's blocking connections need maxRetriesPerRequest: null (a worker waits for Redis to come
 * back); a command (the journal's, a CLI's) is retried over 10 reconnections, some 15 s, then fails, so a run
 * whose journal cannot be written stops (J009) instead of waiting forever. The first connection of a
 * command connection is made by connectRedisNow, which fails at once when Redis cannot be reached.
 */
export function connectRedis(url: string, use: 'queue' | 'command' = 'command'): Redis {
  const parsed = checkRedisUrl(url);
  const redis = new Redis(parsed.href, {
    lazyConnect: use === 'command',
    maxRetriesPerRequest: use === 'queue' ? null : 10,
    enableReadyCheck: true,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // Connection errors reach the commands that wait on them; without a listener ioredis prints each one.
  redis.on('error', () => undefined);
  return redis;
}

/** Connects now, so that an unreachable Redis is F001 with the reason rather than a hang. */
export async function connectRedisNow(url: string, use: 'queue' | 'command' = 'command'): Promise<Redis> {
  const redis = connectRedis(url, use);
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new RecipeError('F001', { url: redactUrl(url), reason: (err as Error).message }, undefined, { cause: err });
  }
  return redis;
}

/** redis:// or rediss:// URLs only (F006 otherwise). */
export function checkRedisUrl(url: string): URL {
  return new URL(checkedStore('redis', url).url);
}

export { redactUrl };

/** The journal's view of an ioredis connection. */
export function commandsOf(redis: Redis): RedisCommands {
  return { call: (command, ...args) => redis.call(command, ...args) };
}

/** What opening the fleet's journal on Redis takes. */
export interface RedisJournalOptions extends FleetJournalOptions {
  /** Quit this connection when the store closes. */
  readonly ownsConnection?: boolean;
}

/** The run journal of a queue's runs, on Redis (`recipe:journal:<queue>`). */
export function openFleetJournal(redis: Redis, o: RedisJournalOptions): RedisJournalStore {
  return new RedisJournalStore(commandsOf(redis), {
    prefix: `${JOURNAL_PREFIX}:${o.queue}`,
    ...(o.recipesDir !== undefined ? { recipesDir: o.recipesDir } : {}),
    ...(o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {}),
    ...(o.holderName !== undefined ? { holderName: o.holderName } : {}),
    ...(o.ownsConnection ? { onClose: async () => void (await redis.quit().catch(() => undefined)) } : {}),
  });
}

/**
 * The fleet on Redis (--redis): a command connection (the journal, visits, rate limits; F001 now when Redis
 * cannot be reached) and a blocking connection of its own for each queue and worker, as BullMQ wants them.
 */
export async function connectRedisStore(url: string): Promise<StoreConnections> {
  const commands = await connectRedisNow(url);
  const queueConnections = new Set<Redis>();
  const queueConnection = (): Redis => {
    const connection = connectRedis(url, 'queue');
    queueConnections.add(connection);
    return connection;
  };
  const kv: FleetKv = {
    set: async (key, value, ttlS) => void (await commands.set(key, value, 'EX', ttlS)),
    setIfAbsent: async (key, value, ttlS) => (await commands.set(key, value, 'EX', ttlS, 'NX')) === 'OK',
    get: async (key) => (await commands.get(key)) ?? undefined,
    exists: async (key) => (await commands.exists(key)) === 1,
    del: async (keys) => void (keys.length > 0 ? await commands.del(...keys) : 0),
  };
  return {
    store: { kind: 'redis', url },
    redis: commands,
    registry: redisRegistry(commands),
    newQueue: (name) => {
      const queue = new Queue(name, { connection: queueConnection() });
      // A connection error is also an 'error' event on the queue: with no listener Node would end the process
      // (exit 1) on a Redis hiccup. The commands waiting on the connection fail (or retry) on their own.
      queue.on('error', () => undefined);
      return queue;
    },
    newWorker: (name, processor, options, events) => {
      const connection = queueConnection();
      const worker = new Worker(name, processor, { ...options, connection });
      listen(worker, events);
      return {
        worker,
        close: async () => {
          await worker.close();
          queueConnections.delete(connection);
          await connection.quit().catch(() => undefined);
        },
      };
    },
    newFlowProducer: () => {
      const flow = new FlowProducer({ connection: commands });
      flow.on('error', () => undefined);
      return flow;
    },
    kv,
    openJournal: (o) => Promise.resolve(openFleetJournal(commands, o)),
    rateLimiter: (maxRps) => Promise.resolve(new FleetRateLimiter({ connection: commands, maxRps })),
    close: async () => {
      await commands.quit().catch(() => undefined);
      for (const c of queueConnections) await c.quit().catch(() => undefined);
      queueConnections.clear();
    },
  };
}
