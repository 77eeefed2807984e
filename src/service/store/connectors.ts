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

export type PublicConnectorRow = Omit<ConnectorRow, 'credentials' | ConfigColumn>;

/** Columns of the published contract's connector configuration (read with findConnectorConfig). */
type ConfigColumn = 'replication_config' | 'environment' | 'entities';

/** One requested entity of a connector (the published contract's RequestedEntity). */
export interface RequestedEntity {
  entity: string;
  modes?: ('read' | 'write')[] | null;
}

/** What a connector answers of its configuration: replication_config and entities (never environment). */
export interface ConnectorConfig {
  replication_config: Record<string, unknown>;
  entities: RequestedEntity[] | null;
}

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

/**
 * The connectors of one workspace, or (workspaceId null) of every live workspace of the organization,
 * optionally of one definition, oldest first.
 */
export async function listConnectors(
  db: Kysely<CoreTables>,
  orgId: string,
  workspaceId: string | null,
  definitionId?: string,
): Promise<PublicConnectorRow[]> {
  let q = db
    .selectFrom('connectors as c')
    .innerJoin('workspaces as w', 'w.id', 'c.workspace_id')
    .select([...PUBLIC_COLUMNS])
    .where('c.organization_id', '=', orgId)
    .where('w.deleted_at', 'is', null);
  if (workspaceId !== null) q = q.where('c.workspace_id', '=', workspaceId);
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
    replicationConfig?: Record<string, unknown>;
    environment?: Record<string, unknown>;
    entities?: RequestedEntity[] | null;
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
    .values({
      ...row,
      credentials: JSON.stringify(c.credentials),
      replication_config: JSON.stringify(c.replicationConfig ?? {}),
      environment: JSON.stringify(c.environment ?? {}),
      entities: c.entities == null ? null : JSON.stringify(c.entities),
    })
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

/** The answered configuration of a connector (the caller has found the connector already). */
export async function findConnectorConfig(db: Kysely<CoreTables>, orgId: string, id: string): Promise<ConnectorConfig> {
  const row = await db
    .selectFrom('connectors')
    .select(['replication_config', 'entities'])
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return {
    replication_config: row ? (JSON.parse(row.replication_config) as Record<string, unknown>) : {},
    entities: row?.entities ? (JSON.parse(row.entities) as RequestedEntity[]) : null,
  };
}

/** Changes a connector's name, replication_config or entities (undefined: unchanged); bumps updated_at. */
export async function updateConnector(
  db: Kysely<CoreTables>,
  orgId: string,
  id: string,
  change: { name?: string; replicationConfig?: Record<string, unknown>; entities?: RequestedEntity[] },
  now: Date,
): Promise<void> {
  await db
    .updateTable('connectors')
    .set({
      updated_at: now.toISOString(),
      ...(change.name !== undefined && { name: change.name }),
      ...(change.replicationConfig !== undefined && { replication_config: JSON.stringify(change.replicationConfig) }),
      ...(change.entities !== undefined && { entities: JSON.stringify(change.entities) }),
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
