import type { Redis } from 'ioredis';
import { WORKER_TTL_MS, type FleetRegistry, type WorkerRecord } from './registry.js';

/** The key prefix of the fleet's own records (the journal has recipe:journal, BullMQ bull). */
export const FLEET_PREFIX = 'recipe:fleet';

/**
 * The fleet's registry on Redis (registry.ts):
 *   recipe:fleet:<queue>:workers           sorted set: worker ids by last heartbeat (epoch ms)
 *   recipe:fleet:<queue>:worker:<id>       string (JSON WorkerRecord) with an expiry of WORKER_TTL_MS
 *   recipe:fleet:<queue>:paused-schedules  hash: schedule name → its paused JSON (schedules.ts)
 * (`workerTtlMs`: WORKER_TTL_MS but in tests.)
 */
export function redisRegistry(redis: Redis, workerTtlMs = WORKER_TTL_MS): FleetRegistry {
  return {
    writeWorker: async (record) => {
      const keys = workerKeys(record.queue);
      await redis
        .multi()
        .set(keys.worker(record.id), JSON.stringify(record), 'PX', workerTtlMs)
        .zadd(keys.set, record.heartbeat_at, record.id)
        .exec();
    },
    removeWorker: async (queue, id) => {
      const keys = workerKeys(queue);
      await redis.multi().del(keys.worker(id)).zrem(keys.set, id).exec();
    },
    listWorkers: async (queue) => {
      const keys = workerKeys(queue);
      const ids = await redis.zrange(keys.set, 0, -1);
      if (ids.length === 0) return [];
      const texts = await redis.mget(ids.map((id) => keys.worker(id)));
      const live: WorkerRecord[] = [];
      const dead: string[] = [];
      texts.forEach((text, i) => {
        if (text === null) dead.push(ids[i] as string);
        else live.push(JSON.parse(text) as WorkerRecord);
      });
      // Ids whose record ran out (a dead worker's) leave the set on the way.
      if (dead.length > 0) await redis.zrem(keys.set, ...dead);
      return live.sort((a, b) => a.id.localeCompare(b.id));
    },
    pause: async (queue, name, paused) => void (await redis.hset(pausedKey(queue), name, paused)),
    unpause: async (queue, name) => (await redis.hdel(pausedKey(queue), name)) > 0,
    listPaused: async (queue) => new Map(Object.entries(await redis.hgetall(pausedKey(queue)))),
  };
}

function workerKeys(queue: string): { readonly set: string; worker(id: string): string } {
  const base = `${FLEET_PREFIX}:${queue}`;
  return { set: `${base}:workers`, worker: (id) => `${base}:worker:${id}` };
}

function pausedKey(queue: string): string {
  return `${FLEET_PREFIX}:${queue}:paused-schedules`;
}
