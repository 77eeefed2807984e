import type { Kysely } from 'kysely';
import { hashSecret } from '../core/secrets.js';
import { applicationExists, authenticateApplication, createApplication } from './applications.js';
import { createOrganization, DEFAULT_WORKSPACE } from './organizations.js';
import type { Store } from '../core/store.js';
import type { CoreTables } from '../core/tables.js';
import { createWorkspace, findWorkspaceByName } from './workspaces.js';

/** An organization with one application whose plain secret the caller holds. */
export interface ProvisionedOrganization {
  organizationId: string;
  defaultWorkspaceId: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Makes sure an application with these credentials exists: an unknown client id gets a new
 * organization (with its default workspace); a known one whose secret differs gets the new secret
 * (the operator who passes the flags owns the application). One transaction.
 */
export async function ensureApplication(
  store: Store,
  creds: { clientId: string; clientSecret: string; organizationName?: string },
  now: Date,
): Promise<ProvisionedOrganization> {
  return store.transaction(async (trx) => {
    const db = trx as Kysely<CoreTables>;
    if (await applicationExists(db, creds.clientId)) {
      let organizationId = await authenticateApplication(db, creds.clientId, creds.clientSecret);
      if (!organizationId) {
        const { hash, salt } = await hashSecret(creds.clientSecret);
        await db
          .updateTable('applications')
          .set({ secret_hash: hash, secret_salt: salt })
          .where('client_id', '=', creds.clientId)
          .execute();
        organizationId = (await authenticateApplication(db, creds.clientId, creds.clientSecret))!;
      }
      const ws = await findWorkspaceByName(db, organizationId, DEFAULT_WORKSPACE);
      const defaultWorkspaceId = ws?.id ?? (await recreateDefault(db, organizationId, now));
      return { organizationId, defaultWorkspaceId, clientId: creds.clientId, clientSecret: creds.clientSecret };
    }
    const org = await createOrganization(db, creds.organizationName ?? 'Default organization', now);
    await createApplication(
      db,
      { clientId: creds.clientId, clientSecret: creds.clientSecret, organizationId: org.organizationId },
      now,
    );
    return { ...org, clientId: creds.clientId, clientSecret: creds.clientSecret };
  });
}

// Every organization has a live `default` workspace; if it was deleted, a restart brings a fresh one.
async function recreateDefault(db: Kysely<CoreTables>, orgId: string, now: Date): Promise<string> {
  return (await createWorkspace(db, orgId, DEFAULT_WORKSPACE, now)).id;
}
