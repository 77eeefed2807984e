import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Raw flags as commander hands them over (all strings). */
export interface RawServeFlags {
  host: string;
  port: string;
  db: string;
  seed?: string;
  seedSize?: string;
  fixtures?: string;
  clientId?: string;
  clientSecret?: string;
  rateLimit?: string;
}

/** Checked options for `recipe serve`. */
export interface ServeOptions {
  host: string;
  port: number;
  db: string;
  seed: 'demo' | 'none';
  seedSize?: number;
  fixtures?: string;
  /** Credentials from flags or environment; undefined means "use or create the credentials file". */
  credentials?: { clientId: string; clientSecret: string; source: 'flags' | 'environment' };
  credentialsFile: string;
  rateLimit?: number;
}

/** A bad flag or environment value; the CLI prints it and exits 2. */
export class ServeUsageError extends Error {}

function integer(flag: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw.trim())) throw new ServeUsageError(`${flag} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ServeUsageError(`${flag} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function credentialPair(
  idName: string,
  secretName: string,
  id: string | undefined,
  secret: string | undefined,
): { clientId: string; clientSecret: string } | undefined {
  if (id === undefined && secret === undefined) return undefined;
  if (!id || !secret) throw new ServeUsageError(`give both ${idName} and ${secretName}, or neither`);
  return { clientId: id, clientSecret: secret };
}

/** Validates every flag (and the credential environment variables) before anything starts. */
export function parseServeFlags(flags: RawServeFlags, env: NodeJS.ProcessEnv): ServeOptions {
  const host = flags.host.trim();
  if (host === '') throw new ServeUsageError('--host must not be empty');
  const port = integer('--port', flags.port, 0, 65535);
  const db = flags.db.trim();
  if (db === '') throw new ServeUsageError('--db must be a file path or :memory:');
  const isNew = db === ':memory:' || !existsSync(db);
  // With --fixtures the dataset is yours alone: demo data beside it would give every lookup two connectors.
  let seed: 'demo' | 'none' = isNew && flags.fixtures === undefined ? 'demo' : 'none';
  if (flags.seed !== undefined) {
    if (flags.seed !== 'demo' && flags.seed !== 'none')
      throw new ServeUsageError(`--seed must be demo or none, got "${flags.seed}"`);
    seed = flags.seed;
  }
  const fromFlags = credentialPair('--client-id', '--client-secret', flags.clientId, flags.clientSecret);
  const fromEnv = fromFlags
    ? undefined
    : credentialPair(
        'CONNECTOR_CLIENT_ID',
        'CONNECTOR_CLIENT_SECRET',
        env['CONNECTOR_CLIENT_ID'] || undefined,
        env['CONNECTOR_CLIENT_SECRET'] || undefined,
      );
  const opts: ServeOptions = {
    host,
    port,
    db,
    seed,
    credentialsFile: join(db === ':memory:' ? '.recipe' : dirname(db), 'credentials.json'),
  };
  if (flags.seedSize !== undefined) opts.seedSize = integer('--seed-size', flags.seedSize, 1, 10_000_000);
  if (flags.fixtures !== undefined) {
    if (!existsSync(flags.fixtures)) throw new ServeUsageError(`--fixtures: no such file ${flags.fixtures}`);
    opts.fixtures = flags.fixtures;
  }
  if (fromFlags) opts.credentials = { ...fromFlags, source: 'flags' };
  else if (fromEnv) opts.credentials = { ...fromEnv, source: 'environment' };
  if (flags.rateLimit !== undefined) opts.rateLimit = integer('--rate-limit', flags.rateLimit, 1, 1_000_000);
  return opts;
}
