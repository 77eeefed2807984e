import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ConnectorInstance } from '../core/connector-type.js';
import type { ConnectorRow, CoreTables } from '../core/tables.js';

/** Connector columns that may leave the store; credentials are deliberately absent. */
const PUBLIC_COLUMNS = [
  'c.id',
  'c.organization_id',
  'c.workspace_id',
  'c.definition_id',
  'c.name',
  'c.created_at',
  'c.updated_at',
] as const;

export type PublicConnectorRow = Omit<ConnectorRow, 'credentials'>;

/** Maps a row to what the execute path sees. */
export function toConnectorInstance(row: PublicConnectorRow): ConnectorInstance {
  return {
    id: row.id,
    organizationId: row.organization_id,
    workspaceId: row.workspace_id,
    definitionId: row.definition_id,
    name: row.name,
  };
}

/** A connector of the organization whose workspace is live, with that workspace's status and name. */
export async function findConnector(
  db: Kysely<CoreTables>,
  orgId: string,
  id: string,
): Promise<(PublicConnectorRow & { workspace_status: 'active' | 'inactive'; workspace_name: string }) | undefined> {
  return db
    .selectFrom('connectors as c')
    .innerJoin('workspaces as w', 'w.id', 'c.workspace_id')
    .select([...PUBLIC_COLUMNS, 'w.status as workspace_status', 'w.name as workspace_name'])
    .where('c.organization_id', '=', orgId)
    .where('c.id', '=', id)
    .where('w.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The connectors of one workspace, optionally of one definition, oldest first. */
export async function listConnectors(
  db: Kysely<CoreTables>,
  orgId: string,
  workspaceId: string,
  definitionId?: string,
): Promise<PublicConnectorRow[]> {
  let q = db
    .selectFrom('connectors as c')
    .select([...PUBLIC_COLUMNS])
    .where('c.organization_id', '=', orgId)
    .where('c.workspace_id', '=', workspaceId);
  if (definitionId !== undefined) q = q.where('c.definition_id', '=', definitionId);
  return q.orderBy('c.created_at').orderBy('c.id').execute();
}

/** Creates a connector; credentials are stored as JSON and never read back by the API. */
export async function createConnector(
  db: Kysely<CoreTables>,
  c: {
    organizationId: string;
    workspaceId: string;
    definitionId: string;
    name: string;
    credentials: Record<string, unknown>;
  },
  now: Date,
): Promise<PublicConnectorRow> {
  const ts = now.toISOString();
  const row: PublicConnectorRow = {
    id: randomUUID(),
    organization_id: c.organizationId,
    workspace_id: c.workspaceId,
    definition_id: c.definitionId,
    name: c.name,
    created_at: ts,
    updated_at: ts,
  };
  await db
    .insertInto('connectors')
    .values({ ...row, credentials: JSON.stringify(c.credentials) })
    .execute();
  return row;
}

/** Deletes a connector; its type's tables cascade. Returns false when there was none to delete. */
export async function deleteConnector(db: Kysely<CoreTables>, orgId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom('connectors')
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
