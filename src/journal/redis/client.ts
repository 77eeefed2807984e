import { createHash } from 'node:crypto';

/**
 * The Redis commands the journal sends, through whatever client its caller holds (the fleet's ioredis
 * connection): journal/ stays free of a Redis library, as it is of every step's semantics.
 */
export interface RedisCommands {
  /** Sends one command; resolves with Redis' reply (bulk strings as strings, arrays as arrays, nil as null). */
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
}

/** A Lua script sent by its SHA-1 (EVALSHA), loaded again when the server does not know it (a restart). */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs the script on `keys` and `args`. */
  async run(redis: RedisCommands, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await redis.call('EVALSHA', this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!String((err as Error).message).includes('NOSCRIPT')) throw err;
      return redis.call('EVAL', this.source, keys.length, ...keys, ...args);
    }
  }
}

/** HGETALL's flat [field, value, ...] reply as an object. */
export function fieldsOf(reply: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(reply)) return out;
  for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
  return out;
}
