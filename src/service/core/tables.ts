/**
 * Row shapes of the service's core tables (created by store/core-migrations.ts): what `Store.db` knows.
 * A type, not an interface: Kysely's `withTables` needs a table map with an index signature's shape.
 */
export type CoreTables = {
  organizations: { id: string; name: string; created_at: string };
  applications: {
    client_id: string;
    organization_id: string;
    secret_hash: string;
    secret_salt: string;
    created_at: string;
  };
  signing_keys: { id: string; algorithm: string; secret: string; created_at: string };
  workspaces: WorkspaceRow;
  connectors: ConnectorRow;
};

export interface WorkspaceRow {
  id: string;
  organization_id: string;
  name: string;
  status: 'active' | 'inactive';
  /** 1, 0 or null (inherit). */
  cache_enabled: number | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface ConnectorRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  definition_id: string;
  name: string;
  credentials: string;
  /** JSON object (the published contract's replication_config; '{}' when none was given). */
  replication_config: string;
  /** JSON object of user configuration; stored, never returned. */
  environment: string;
  /** JSON array of {entity, modes}, or null. */
  entities: string | null;
  created_at: string;
  updated_at: string;
}
