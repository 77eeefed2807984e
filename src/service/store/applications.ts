import type { Kysely } from 'kysely';
import { hashSecret, verifySecret } from '../core/secrets.js';
import type { CoreTables } from '../core/tables.js';

/**
 * The stored form of a secret no application has (scrypt of a fixed text and salt): checking an unknown
 * client id against it costs the same scrypt work as checking a known one.
 */
const DUMMY_HASH = Object.freeze({
  hash: '+g7UWBxKbNWHgPNHgPuhGF5x4jnfWb3Lb9/rbtbN664=',
  salt: 'cmVjaXBlLWR1bW15LXNhbHQ=',
});

/** Registers an application (client id + secret) for an organization; stores only the scrypt hash. */
export async function createApplication(
  db: Kysely<CoreTables>,
  app: { clientId: string; clientSecret: string; organizationId: string },
  now: Date,
): Promise<void> {
  const { hash, salt } = await hashSecret(app.clientSecret);
  await db
    .insertInto('applications')
    .values({
      client_id: app.clientId,
      organization_id: app.organizationId,
      secret_hash: hash,
      secret_salt: salt,
      created_at: now.toISOString(),
    })
    .execute();
}

/** The organization of an application whose secret matches, or null (unknown id and wrong secret look the same). */
export async function authenticateApplication(
  db: Kysely<CoreTables>,
  clientId: string,
  clientSecret: string,
): Promise<string | null> {
  const row = await db.selectFrom('applications').selectAll().where('client_id', '=', clientId).executeTakeFirst();
  if (!row) {
    // Spend the same scrypt work as for a known client, so response time does not tell which ids exist.
    await verifySecret(clientSecret, DUMMY_HASH);
    return null;
  }
  const ok = await verifySecret(clientSecret, { hash: row.secret_hash, salt: row.secret_salt });
  return ok ? row.organization_id : null;
}

/** Whether an application with this client id exists. */
export async function applicationExists(db: Kysely<CoreTables>, clientId: string): Promise<boolean> {
  const row = await db
    .selectFrom('applications')
    .select('client_id')
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row !== undefined;
}
