import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RecipeError } from '../errors/index.js';
import type { RunningService } from '../service/start.js';
import { CredentialsFileError, readOrCreateCredentials, type LocalCredentials } from './credentials-file.js';

/** Where `recipe run` keeps the embedded service's data when no service URL is configured. */
export const EMBEDDED_DB = '.recipe/local.db';

/**
 * Starts the embedded connector service in-process on 127.0.0.1 with the local database (created and
 * seeded with the demo data on first use). Credentials live in credentials.json next to the database,
 * the same file `recipe serve` uses, so both see the same organization and data.
 */
export async function startEmbedded(cwd: string): Promise<RunningService> {
  const db = join(cwd, EMBEDDED_DB);
  mkdirSync(dirname(db), { recursive: true });
  const creds = credentialsFromFile(join(dirname(db), 'credentials.json'));
  // Loaded here, not at the top: a run against a configured service should not pay for loading the service.
  const { startService } = await import('../service/start.js');
  // Always 'demo': seeding skips types that already have their demo connector, and finishes the seed of a
  // first run that was interrupted (Ctrl-C while seeding) instead of running on half the data.
  return startService({
    db,
    seed: 'demo',
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    logLevel: 'silent',
  });
}

/** The credentials file, with a problem in it reported as a configuration error (exit 3). */
function credentialsFromFile(file: string): LocalCredentials {
  try {
    return readOrCreateCredentials(file);
  } catch (err) {
    if (err instanceof CredentialsFileError) throw new RecipeError('C001', { reason: err.message });
    throw err;
  }
}
