/**
 * The connector catalog: what each connector type offers (entities, actions, their params schemas, which
 * actions write and how they page) as one plain-data document. Built offline from schemas/connectors/ for the
 * embedded types, or from a service's OpenAPI document; JSON-serialisable, so it is also the cache format.
 */

/** A JSON Schema (draft 2020-12), as plain data. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface ConnectorCatalog {
  /** "embedded" (schemas/connectors/), or the URL of the service it was read from. */
  readonly source: string;
  /**
   * True when the catalog lists every connector type its service has (one read from a service): a connector
   * definition it does not know is then an error. The embedded catalog is not complete: a hosted service may
   * offer more types, so a recipe naming one is not checked.
   */
  readonly complete: boolean;
  /**
   * Read from a service: whether its OpenAPI document declares the Idempotency-Key header on execute (what a
   * journaled run's client would otherwise fetch the document again to learn). Absent for the embedded catalog.
   */
  readonly idempotencyKeys?: boolean;
  readonly types: readonly CatalogType[];
}

/** One connector type: its entities, each with its actions. */
export interface CatalogType {
  /** Display name, e.g. "CRM". */
  readonly name: string;
  /** Lower-case slug, e.g. "crm". */
  readonly slug?: string;
  /** The definition id (sourceDefinitionId) connectors of this type carry. */
  readonly definitionId?: string;
  /** Entities in the service's order. */
  readonly entities: readonly CatalogEntity[];
  /** Association types between standard object types, where the type has them (the CRM). */
  readonly associationTypes?: readonly AssociationType[];
  /**
   * The entity whose records link two records (its create takes fromObjectType, toObjectType and an
   * associationTypeId), as the connector's descriptor flags it; its name and a dot also begin the names a read
   * may give to filter on associations (`<entity>.company`). The engine learns it here, never by name.
   */
  readonly associationEntity?: string;
}

export interface CatalogEntity {
  readonly name: string;
  readonly actions: readonly CatalogAction[];
  /** Property names (CRM records): the ones a read may return, and the ones create/update may set. */
  readonly properties?: { readonly readable: readonly string[]; readonly writable: readonly string[] };
}

/** How a list action pages: the param that carries the position of the next page. */
export type PagingParam = 'after' | 'offset' | 'cursor';

export interface CatalogAction {
  readonly entity: string;
  readonly action: string;
  readonly summary: string;
  /** True when the action changes data (--dry-run does not send it). */
  readonly write: boolean;
  /** The param a paginate step advances, or null when the action does not page. */
  readonly paging: PagingParam | null;
  /** The JSON Schema of params: the one the service validates execute with. */
  readonly params: JsonSchema;
  /** Maxima the service enforces beyond the schema: `param` at most `maximum` when `when` is given. */
  readonly limits?: readonly ParamLimit[];
}

export interface ParamLimit {
  readonly param: string;
  readonly maximum: number;
  readonly when: string;
}

/** One association type in one direction, with the name accepted in place of its id. */
export interface AssociationType {
  readonly from: string;
  readonly to: string;
  readonly name: string;
  readonly typeId: number;
  readonly inverseId: number;
  readonly label: string | null;
  /** A second id the service accepts for the same pair; it has no name of its own. */
  readonly alias?: true;
}
