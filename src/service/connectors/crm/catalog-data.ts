import type { AssociationTypeData, ConnectorDataExtras } from '../catalog-data.js';
import { LIST_MAX_WITH_HISTORY } from './actions/list.js';
import { standardTypeDefs, v3TypeName } from './association-types.js';
import { ASSOCIATIONS_ENTITY, ENTITIES, RECORD_ENTITIES, knownProperties } from './entities.js';
import { standardType } from './object-types.js';

/** The association types between standard object types, with their names. */
function crmAssociationTypes(): AssociationTypeData[] {
  return standardTypeDefs().map((d) => {
    const from = standardType(d.from as (typeof RECORD_ENTITIES)[number]);
    const to = standardType(d.to as (typeof RECORD_ENTITIES)[number]);
    return {
      from: d.from,
      to: d.to,
      name: v3TypeName(from, to, 'PLATFORM_DEFINED', d.typeId),
      typeId: d.typeId,
      inverseId: d.inverseId,
      label: d.label,
      ...(d.alias ? { alias: true as const } : {}),
    };
  });
}

/**
 * What the CRM's data file adds: property lists, the propertiesWithHistory page maximum, association types and
 * the entity that holds associations.
 */
export function crmDataExtras(): ConnectorDataExtras {
  const properties: Record<string, { readable: string[]; writable: string[] }> = {};
  for (const name of RECORD_ENTITIES) {
    const spec = ENTITIES[name];
    properties[name] = { readable: [...knownProperties(spec)], writable: [...spec.writable] };
  }
  return {
    properties,
    associationTypes: crmAssociationTypes(),
    associationEntity: ASSOCIATIONS_ENTITY,
    limits: (entity, action) =>
      action === 'list' && (entity === 'objects' || (RECORD_ENTITIES as readonly string[]).includes(entity))
        ? [{ param: 'limit', maximum: LIST_MAX_WITH_HISTORY, when: 'propertiesWithHistory' }]
        : undefined,
  };
}
