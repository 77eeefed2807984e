import type { Kysely } from 'kysely';
import type { ConnectorType } from '../core/connector-type.js';
import { sourceTemplateId } from '../core/source-template.js';
import {
  lowestStatus,
  readContextStoreReadiness,
  type ContextStoreStatus,
  type EntityReadiness,
} from '../context-store/index.js';
import type { PublicConnectorRow } from '../store/connectors.js';
import type { CoreTables } from '../core/tables.js';

/** The inspect answer for one connector (see docs/context-store.md for the readiness fields). */
export interface InspectReport {
  connector_id: string;
  name: string;
  workspace_id: string;
  organization_id: string;
  source_definition_id: string;
  source_definition_name: string;
  /** The type's one source template (core/source-template.ts). */
  source_config_template_id: string;
  docs_skill_id: string;
  context_store_status: ContextStoreStatus | null;
  context_store_readiness: {
    connector_id: string;
    source_definition_id: string;
    supported_context_store_entities: { entity: string; suggested: boolean }[];
    /** supported: the entity is one the type declares (always, here: only declared entities are cached). */
    configured_cache_entities: (EntityReadiness & { supported: boolean })[];
  } | null;
  /** Every action of the type; `write` says whether it changes data (clients check writes before a run). */
  actions: {
    entity: string;
    action: string;
    required_params: string[];
    optional_params: string[];
    write: boolean;
    /** Present (true) on a write that may be sent again after a connection reset. */
    idempotent?: true;
  }[];
  warnings: string[];
}

/** The docs skill id of a connector, as inspect and the skills endpoints use it. */
export function docsSkillId(connectorId: string): string {
  return `connector-source:${connectorId}`;
}

/** Builds the inspect report: identity, readiness of the context store (lowest over entities) and the action catalogue. */
export async function inspectConnector(
  db: Kysely<CoreTables>,
  row: PublicConnectorRow,
  type: ConnectorType,
): Promise<InspectReport> {
  const source = type.contextStore;
  const entities = source ? await readContextStoreReadiness(db, row.id, source.entities) : [];
  const status = source ? lowestStatus(entities.map((e) => e.status)) : null;
  const warnings: string[] = [];
  const notReady = entities.filter((e) => !e.ready_for_search).map((e) => e.entity);
  if (notReady.length > 0) {
    warnings.push(
      `context_store_search is not available yet for ${notReady.join(', ')} (Loading or Building Preview); use list and get until they reach Preview`,
    );
  }
  const preview = entities.filter((e) => e.status === 'Preview').map((e) => e.entity);
  if (preview.length > 0)
    warnings.push(
      `the context store of ${preview.join(', ')} is a Preview: searches see only the records indexed so far`,
    );
  return {
    connector_id: row.id,
    name: row.name,
    workspace_id: row.workspace_id,
    organization_id: row.organization_id,
    source_definition_id: type.definition.id,
    source_definition_name: type.definition.name,
    source_config_template_id: sourceTemplateId(type.definition),
    docs_skill_id: docsSkillId(row.id),
    context_store_status: status,
    context_store_readiness: source
      ? {
          connector_id: row.id,
          source_definition_id: type.definition.id,
          supported_context_store_entities: source.entities.map((entity) => ({ entity, suggested: true })),
          configured_cache_entities: entities.map((e) => ({ ...e, supported: true })),
        }
      : null,
    actions: type.actions.map((a) => ({
      entity: a.entity,
      action: a.action,
      required_params: [...a.requiredParams],
      optional_params: [...a.optionalParams],
      write: a.write,
      ...(a.idempotent ? { idempotent: true as const } : {}),
    })),
    warnings,
  };
}
