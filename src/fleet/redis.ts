import { Redis } from 'ioredis';
import { RecipeError } from '../errors/index.js';
import { RedisJournalStore, type RedisCommands } from '../journal/index.js';
import { JOURNAL_PREFIX } from './job.js';
import { checkedStore, redactUrl } from './fleet-store.js';

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

/** What opening the fleet's journal needs. */
export interface FleetJournalOptions {
  readonly queue: string;
  readonly recipesDir?: string;
  readonly leaseMs?: number;
  readonly holderName?: string;
  /** Quit this connection when the store closes. */
  readonly ownsConnection?: boolean;
}

/** The run journal of a queue's runs, on Redis (`recipe:journal:<queue>`). */
export function openFleetJournal(redis: Redis, o: FleetJournalOptions): RedisJournalStore {
  return new RedisJournalStore(commandsOf(redis), {
    prefix: `${JOURNAL_PREFIX}:${o.queue}`,
    ...(o.recipesDir !== undefined ? { recipesDir: o.recipesDir } : {}),
    ...(o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {}),
    ...(o.holderName !== undefined ? { holderName: o.holderName } : {}),
    ...(o.ownsConnection ? { onClose: async () => void (await redis.quit().catch(() => undefined)) } : {}),
  });
}
