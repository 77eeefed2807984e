import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RecipeError } from '../errors/index.js';
import type { RunningService } from '../service/start.js';

/** Where `recipe run` keeps the embedded service's data when no service URL is configured. */
export const EMBEDDED_DB = '.recipe/local.db';

/**
 * Starts the embedded connector service in-process on 127.0.0.1 with the local database (created and
 * seeded with the demo data on first use). Credentials live in credentials.json next to the database,
 * the same file `recipe serve` uses, so both see the same organization and data.
 */
export async function startEmbedded(cwd: string): Promise<RunningService> {
  const db = join(cwd, EMBEDDED_DB);
  const fresh = !existsSync(db);
  mkdirSync(dirname(db), { recursive: true });
  const creds = readOrCreateCredentials(join(dirname(db), 'credentials.json'));
  // Loaded here, not at the top: a run against a configured service should not pay for loading the service.
  const { startService } = await import('../service/start.js');
  return startService({ db, seed: fresh ? 'demo' : 'none', clientId: creds.clientId, clientSecret: creds.clientSecret, logLevel: 'silent' });
}

function readOrCreateCredentials(file: string): { clientId: string; clientSecret: string } {
  if (existsSync(file)) {
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      /* reported below */
    }
    const p = (parsed ?? {}) as { client_id?: unknown; client_secret?: unknown };
    if (typeof p.client_id !== 'string' || typeof p.client_secret !== 'string' || !p.client_id || !p.client_secret) {
      throw new RecipeError('C001', { reason: `${file} must hold {"client_id": "...", "client_secret": "..."}; fix or delete it` });
    }
    return { clientId: p.client_id, clientSecret: p.client_secret };
  }
  const creds = { clientId: `local-${randomBytes(6).toString('hex')}`, clientSecret: randomBytes(32).toString('base64url') };
  writeFileSync(file, `${JSON.stringify({ client_id: creds.clientId, client_secret: creds.clientSecret }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return creds;
}
