import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CoreTables } from '../core/tables.js';

/** Name of the workspace every organization gets. */
export const DEFAULT_WORKSPACE = 'default';

/** Creates an organization and its `default` workspace (inside the caller's transaction). */
export async function createOrganization(
  db: Kysely<CoreTables>,
  name: string,
  now: Date,
): Promise<{ organizationId: string; defaultWorkspaceId: string }> {
  const ts = now.toISOString();
  const organizationId = randomUUID();
  const defaultWorkspaceId = randomUUID();
  await db.insertInto('organizations').values({ id: organizationId, name, created_at: ts }).execute();
  await db
    .insertInto('workspaces')
    .values({
      id: defaultWorkspaceId,
      organization_id: organizationId,
      name: DEFAULT_WORKSPACE,
      status: 'active',
      cache_enabled: null,
      created_at: ts,
      updated_at: ts,
      deleted_at: null,
    })
    .execute();
  return { organizationId, defaultWorkspaceId };
}
