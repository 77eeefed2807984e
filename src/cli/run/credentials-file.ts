import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The application credentials `recipe serve` and the embedded `recipe run` share. */
export interface LocalCredentials {
  clientId: string;
  clientSecret: string;
}

/** A credentials file that exists but cannot be used; the message names the file and the fix. */
export class CredentialsFileError extends Error {}

/**
 * Reads credentials.json, or creates it (mode 0600) with fresh random credentials. Both commands use it,
 * so `recipe serve` and `recipe run` on the same folder see the same organization and data.
 */
export function readOrCreateCredentials(file: string): LocalCredentials {
  if (existsSync(file)) {
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      /* reported below, with the shape the file must have */
    }
    const p = (parsed ?? {}) as { client_id?: unknown; client_secret?: unknown };
    if (typeof p.client_id !== 'string' || typeof p.client_secret !== 'string' || !p.client_id || !p.client_secret) {
      throw new CredentialsFileError(
        `${file} must hold {"client_id": "...", "client_secret": "..."}; fix or delete it`,
      );
    }
    return { clientId: p.client_id, clientSecret: p.client_secret };
  }
  const creds = {
    clientId: `local-${randomBytes(6).toString('hex')}`,
    clientSecret: randomBytes(32).toString('base64url'),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify({ client_id: creds.clientId, client_secret: creds.clientSecret }, null, 2)}\n`,
    { mode: 0o600 },
  );
  chmodSync(file, 0o600);
  return creds;
}
