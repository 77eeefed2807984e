import type { Kysely } from 'kysely';
import type { Store } from '../store/store.js';

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
}

export type { Kysely };
