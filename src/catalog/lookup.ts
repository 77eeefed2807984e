import type { CatalogAction, CatalogEntity, CatalogType, ConnectorCatalog } from './types.js';

/** The type a connector definition names: its slug, display name (case-insensitive) or definition id. */
export function findType(catalog: ConnectorCatalog, definition: string): CatalogType | undefined {
  const v = definition.trim().toLowerCase();
  return catalog.types.find(
    (t) => t.name.toLowerCase() === v || t.slug?.toLowerCase() === v || t.definitionId?.toLowerCase() === v,
  );
}

export function findEntity(type: CatalogType, entity: string): CatalogEntity | undefined {
  return type.entities.find((e) => e.name === entity);
}

export function findAction(type: CatalogType, entity: string, action: string): CatalogAction | undefined {
  return findEntity(type, entity)?.actions.find((a) => a.action === action);
}
