import { readFileSync } from 'node:fs';
import { pagingOf } from './paging.js';
import type { AssociationType, CatalogAction, CatalogType, ConnectorCatalog, JsonSchema, ParamLimit } from './types.js';

/** schemas/connectors/ at the package root: two levels up from src/catalog/ and from dist/catalog/ alike. */
const CONNECTORS_DIR = new URL('../../schemas/connectors/', import.meta.url);

/** schemas/connectors/catalog.json as written by scripts/gen-connector-catalog.mjs. */
interface DataFile {
  types: {
    name: string;
    slug: string;
    definition_id: string;
    actions: { entity: string; action: string; summary: string; write: boolean; limits?: ParamLimit[] }[];
    properties?: Record<string, { readable: string[]; writable: string[] }>;
    association_types?: AssociationType[];
    association_entity?: string;
  }[];
}

let embedded: ConnectorCatalog | undefined;

/**
 * The catalog of the embedded service's connector types, built from schemas/connectors/ (catalog.json and
 * each action's params schema, the files the service validates execute with). Read once per process.
 */
export function embeddedCatalog(): ConnectorCatalog {
  embedded ??= buildEmbeddedCatalog();
  return embedded;
}

function readJson(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, CONNECTORS_DIR), 'utf8'));
}

function buildEmbeddedCatalog(): ConnectorCatalog {
  const data = readJson('catalog.json') as DataFile;
  const types = data.types.map((t): CatalogType => {
    const byEntity = new Map<string, CatalogAction[]>();
    for (const a of t.actions) {
      const params = readJson(`${t.slug}/${a.entity}.${a.action}.params.json`) as JsonSchema;
      const action: CatalogAction = {
        entity: a.entity,
        action: a.action,
        summary: a.summary,
        write: a.write,
        paging: pagingOf(a.action, params),
        params,
        ...(a.limits ? { limits: a.limits } : {}),
      };
      byEntity.set(a.entity, [...(byEntity.get(a.entity) ?? []), action]);
    }
    return {
      name: t.name,
      slug: t.slug,
      definitionId: t.definition_id,
      entities: [...byEntity].map(([name, actions]) => {
        const properties = t.properties?.[name];
        return { name, actions, ...(properties ? { properties } : {}) };
      }),
      ...(t.association_types ? { associationTypes: t.association_types } : {}),
      ...(t.association_entity ? { associationEntity: t.association_entity } : {}),
    };
  });
  return { source: 'embedded', complete: false, types };
}
