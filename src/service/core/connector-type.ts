import type { Kysely } from 'kysely';
import type { Migration, SqlFunction, Store } from './store.js';
import type { CoreTables } from './tables.js';

/** A connector type as listed by the definitions catalog. */
export interface ConnectorDefinition {
  /** UUID, stable across restarts (hard-coded per type). */
  readonly id: string;
  /** Display name, e.g. "CRM", "Files". */
  readonly name: string;
  /** Lower-case slug accepted as connector_type on create, e.g. "crm", "files". */
  readonly slug: string;
  readonly iconUrl: string;
  readonly supportLevel: 'certified' | 'community';
}

/** One connector (an instance of a type) as the execute path sees it. */
export interface ConnectorInstance {
  readonly id: string;
  readonly organizationId: string;
  readonly workspaceId: string;
  readonly definitionId: string;
  readonly name: string;
}

/** One entity/action pair a connector type offers; the schema is the one under schemas/connectors/<slug>/. */
export interface ActionDescriptor {
  readonly entity: string;
  readonly action: string;
  /** JSON Schema (draft 2020-12) of params; it validates execute and generates skills docs and OpenAPI. */
  readonly paramsSchema: Record<string, unknown>;
  /** JSON Schema of the result (what goes into the envelope's result), for docs and OpenAPI. */
  readonly resultSchema?: Record<string, unknown>;
  readonly requiredParams: readonly string[];
  readonly optionalParams: readonly string[];
  /** True for actions that change data (create, update, delete, associations create/delete). */
  readonly write: boolean;
  /**
   * True for a write whose repetition cannot change the outcome (associations create and delete): a client
   * may send it again after a connection reset. Said in inspect's `actions[]`; absent means no.
   */
  readonly idempotent?: boolean;
  readonly summary: string;
}

/** What an action answers: JSON for the envelope, or raw bytes (download: no envelope). */
export type ActionResult =
  | { readonly kind: 'json'; readonly result: unknown; readonly connectorMetadata: Record<string, unknown> }
  | { readonly kind: 'bytes'; readonly body: Buffer; readonly contentType: string; readonly filename: string };

export interface ActionContext {
  readonly store: Store;
  readonly connector: ConnectorInstance;
  /** The service clock; tests may pin it. */
  now(): Date;
  /** Public base URL of this service (for next_link). */
  readonly baseUrl: string;
  /**
   * Tells the context store that records changed (after the write committed), so the index catches up
   * within its stated lag. Writers call it for every created/updated/archived record and both ends of
   * an association change.
   */
  notifyChange(entity: string, ids: readonly string[]): void;
  /**
   * Records changed records in the change outbox inside the write's own transaction, so the context
   * store catches up even when the process dies right after the commit. Writers call it with their
   * transaction and still call notifyChange after the commit (which wakes the indexer at once).
   * Absent where nothing indexes (a context built by hand).
   */
  recordChanges?(trx: Kysely<CoreTables>, entity: string, ids: readonly string[]): Promise<void>;
  /** The context store's search, when the service runs one: a connector's context_store_search goes here. */
  readonly contextStore?: ContextStoreSearch;
}

/** The context store as a connector type reaches it (ActionContext.contextStore). */
export interface ContextStoreSearch {
  /** Answers context_store_search for one entity of ctx.connector. */
  search(ctx: ActionContext, entity: string, params: Record<string, unknown>): Promise<ActionResult>;
}

export interface SeedOptions {
  /** Number of contacts; other entities scale from it. */
  readonly size: number;
  /** PRNG seed, so the demo data is the same on every machine. */
  readonly seed: number;
}

/** A connector type: its definition, its actions and how to execute them. */
export interface ConnectorType {
  readonly definition: ConnectorDefinition;
  readonly actions: readonly ActionDescriptor[];
  /** Params arrive already validated against the action's paramsSchema. */
  execute(ctx: ActionContext, entity: string, action: string, params: Record<string, unknown>): Promise<ActionResult>;
  /** Fills a new connector with deterministic demo data. */
  seedDemo?(ctx: ActionContext, opts: SeedOptions): Promise<void>;
  /** Loads a user-supplied dataset (already parsed from JSON/YAML); validates it and fails whole. */
  loadFixtures?(ctx: ActionContext, data: unknown): Promise<void>;
  /** Tables this type keeps (keyed by connector_id, ON DELETE CASCADE from connectors, so delete removes data). */
  readonly migrations?: readonly Migration[];
  /** SQL functions its migrations and queries use (registered on the store's connection). */
  readonly sqlFunctions?: readonly SqlFunction[];
  /** Present when the type offers context_store_search. */
  readonly contextStore?: ContextStoreSource;
}

/** A record as the context store indexes it: the spec's searchable fields of one entity. */
export interface IndexDoc {
  readonly id: string;
  readonly archived: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly properties: Readonly<Record<string, string | null>>;
  /** Association arrays (companies, contacts, line_items) where the entity has them. */
  readonly [arrayField: string]: unknown;
}

/** What a connector type offers the context store: which entities, and how to read them for indexing. */
export interface ContextStoreSource {
  readonly entities: readonly string[];
  /** Top-level array fields per entity (e.g. deals: companies, contacts, line_items). */
  arrayFields(entity: string): readonly string[];
  /** properties.* fields per entity, from the spec's searchable fields table. */
  propertyFields(entity: string): readonly string[];
  /** Reads records in a stable order for the initial build; `after` is the last key returned, null to start. */
  scan(
    ctx: ActionContext,
    entity: string,
    after: string | null,
    limit: number,
  ): Promise<{ docs: IndexDoc[]; next: string | null }>;
  /** Reads the current searchable shape of some records (after a change), archived ones included. */
  read(ctx: ActionContext, entity: string, ids: readonly string[]): Promise<IndexDoc[]>;
  /** How many records an entity holds now. */
  count(ctx: ActionContext, entity: string): Promise<number>;
}

/** The connector type with this definition id (sourceDefinitionId), if any. */
export function findTypeByDefinitionId(
  definitionId: string,
  types: readonly ConnectorType[],
): ConnectorType | undefined {
  return types.find((t) => t.definition.id === definitionId);
}

/** The connector type whose slug or display name matches, case-insensitively ("crm", "CRM"). */
export function findTypeBySlugOrName(value: string, types: readonly ConnectorType[]): ConnectorType | undefined {
  const v = value.trim().toLowerCase();
  return types.find((t) => t.definition.slug.toLowerCase() === v || t.definition.name.toLowerCase() === v);
}
