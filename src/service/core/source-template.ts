import { createHash } from 'node:crypto';
import type { ConnectorDefinition, ConnectorType } from './connector-type.js';

/**
 * The hosted service creates connectors from a "source template" (a connector type enabled for an
 * organization, with defaults). The embedded service has no templates to manage: every connector type is
 * enabled for everyone, so each type has exactly one template, derived from its definition. Its id is a
 * name-based UUID (version 5 layout) of the definition id, stable across restarts and databases.
 */
export function sourceTemplateId(definition: ConnectorDefinition): string {
  const h = createHash('sha1').update(`recipe-source-template:${definition.id}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The connection specification of a type's credentials: the embedded connectors need none. */
export function connectionSpecification(definition: ConnectorDefinition): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `${definition.name} credentials`,
    description: 'The embedded service needs no credentials; any object given is stored and never returned.',
    type: 'object',
    required: [],
    properties: {},
  };
}

/** A connector list item's summarized_source_template. */
export function summarizedSourceTemplate(type: ConnectorType) {
  const definition = type.definition;
  return {
    id: sourceTemplateId(definition),
    name: definition.name,
    icon: definition.iconUrl,
    connector_name: definition.slug,
    organization_id: null,
    actor_definition_id: definition.id,
    tags: [],
    customization: null,
    mode: 'DIRECT',
    runtime_mode: type.contextStore ? 'direct_and_context_store' : 'direct_only',
    supports_context_store: type.contextStore !== undefined,
    created_at: null,
    updated_at: null,
  };
}

/** A connector's source_template (get, create, update). */
export function detailedSourceTemplate(type: ConnectorType) {
  const definition = type.definition;
  const supportsContextStore = type.contextStore !== undefined;
  return {
    id: sourceTemplateId(definition),
    name: definition.name,
    icon: definition.iconUrl,
    source_definition_id: definition.id,
    user_config_spec: { connectionSpecification: connectionSpecification(definition) },
    partial_default_config: {},
    customization: null,
    tags: [],
    mode: 'DIRECT',
    is_experimental: false,
    runtime_mode: supportsContextStore ? 'direct_and_context_store' : 'direct_only',
    supports_context_store: supportsContextStore,
    created_at: null,
    updated_at: null,
  };
}
