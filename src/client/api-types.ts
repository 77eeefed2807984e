/**
 * What the connector API's published contract promises in its answers (the hosted service's OpenAPI 3.1
 * document, "Airbyte Agent API" 0.9.0), for the operations ConnectorClient offers. Fields the contract marks
 * required are required here; fields only the embedded service adds are optional and say so, so code written
 * against these types runs against either service.
 */

/** One connector definition (a connector type) of GET /integrations/definitions/sources. */
export interface ConnectorDefinition {
  readonly sourceDefinitionId: string;
  readonly name: string;
  readonly iconUrl: string;
  readonly supportLevel: string;
}

/** The template a connector was made from, as the connectors list summarises it. */
export interface SummarizedSourceTemplate {
  readonly id: string;
  readonly name: string;
  readonly icon: string;
  /** The connector definition's id: what a lookup by definition matches. */
  readonly actor_definition_id: string;
  readonly tags?: readonly string[];
  readonly runtime_mode?: string;
  readonly supports_context_store?: boolean;
  readonly connector_name?: string;
}

/** One connector of GET /integrations/connectors. */
export interface ConnectorSummary {
  readonly id: string;
  readonly name: string;
  readonly summarized_source_template: SummarizedSourceTemplate;
  readonly workspace_id?: string;
  readonly definition_id?: string;
  readonly definition_name?: string | null;
  readonly created_at?: string;
  readonly updated_at?: string;
}

/** Filters of GET /integrations/connectors the contract declares (a service may ignore some: match yourself). */
export interface ConnectorQuery {
  readonly workspace_name?: string;
  readonly workspace_id?: string;
  readonly definition_id?: string;
  readonly customer_name?: string;
  readonly external_user_id?: string;
}

/** One action of inspect's `actions` (the embedded service's addition; the hosted contract has none). */
export interface InspectAction {
  readonly entity: string;
  readonly action: string;
  readonly required_params: readonly string[];
  readonly optional_params: readonly string[];
  readonly write: boolean;
  readonly idempotent?: boolean;
}

/** GET /integrations/connectors/{id}/inspect. */
export interface InspectAnswer {
  readonly connector_id: string;
  readonly name: string;
  readonly workspace_id: string;
  readonly organization_id: string;
  readonly source_definition_id: string;
  readonly source_definition_name: string;
  readonly docs_skill_id: string;
  readonly context_store_readiness: Record<string, unknown> | null;
  readonly source_config_template_id?: string;
  /** Embedded service only: Loading, Building Preview, Preview, Ready or null. */
  readonly context_store_status?: string | null;
  /** Embedded service only: each action with its params and whether it writes. */
  readonly actions?: readonly InspectAction[];
  readonly warnings?: readonly string[];
}

/** One workspace of GET /workspaces. */
export interface Workspace {
  readonly id: string;
  readonly name: string;
  readonly organization_id: string;
  readonly status: string;
  readonly created_at: string;
  readonly updated_at: string;
}

/** One entry of a skill's outline: a section id to ask for. */
export interface SkillSectionRef {
  readonly id: string;
  readonly title: string;
  readonly summary: string;
  readonly available: boolean;
}

/** A block of a skill's content. */
export type SkillBlock =
  | { readonly type: 'heading'; readonly level: number; readonly text: string }
  | { readonly type: 'paragraph'; readonly text: string }
  | { readonly type: 'list'; readonly items: readonly string[] }
  | { readonly type: 'code'; readonly language: string; readonly code: string }
  | { readonly type: 'table'; readonly headers: readonly string[]; readonly rows: readonly (readonly string[])[] };

/** GET /skills/docs: without a section, the outline; with one, that section's content. */
export interface SkillDocs {
  readonly metadata: { readonly id: string; readonly title: string; readonly summary: string };
  readonly outline: readonly SkillSectionRef[];
  readonly section_id: string | null;
  readonly content: readonly SkillBlock[];
}
