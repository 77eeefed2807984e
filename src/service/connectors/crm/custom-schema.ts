import { ENTITIES, RECORD_ENTITIES, type RecordEntity } from './entities.js';

/** One property of a custom object schema (the fields upstream lists that we keep). */
export interface CustomPropertyDef {
  readonly name: string;
  readonly label: string;
  /** string, number, date, datetime or enumeration. */
  readonly type: 'string' | 'number' | 'date' | 'datetime' | 'enumeration';
  readonly fieldType: string;
  readonly description: string;
  readonly hasUniqueValue: boolean;
  readonly options: readonly { label: string; value: string }[];
}

/** A custom object schema as the CRM keeps it. objectTypeId is "2-<id>", fullyQualifiedName "p<portal>_<name>". */
export interface CustomSchema {
  readonly id: number;
  readonly objectTypeId: string;
  readonly name: string;
  readonly fullyQualifiedName: string;
  readonly labels: { singular: string; plural: string };
  readonly description: string | null;
  readonly requiredProperties: readonly string[];
  readonly searchableProperties: readonly string[];
  readonly primaryDisplayProperty: string;
  readonly secondaryDisplayProperties: readonly string[];
  readonly properties: readonly CustomPropertyDef[];
  /** Standard object types records of this type associate with. */
  readonly associatedObjects: readonly RecordEntity[];
  readonly archived: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A stable pseudo portal id per connector, used in fullyQualifiedName ("p<portal>_<name>"). */
export function portalIdFor(connectorId: string): number {
  let h = 2166136261;
  for (let i = 0; i < connectorId.length; i++) {
    h ^= connectorId.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return 10_000_000 + (h % 90_000_000);
}

/** The standard objects a custom object type associates with, in the order that fixes their type ids. */
export const CUSTOM_ASSOCIATION_TARGETS: readonly RecordEntity[] = RECORD_ENTITIES;

/** The association type id custom→target (target→custom is this + 1); account-specific upstream, derived here. */
export function customAssociationTypeId(schemaId: number, target: RecordEntity): number {
  return 10_000 + schemaId * 100 + 2 * CUSTOM_ASSOCIATION_TARGETS.indexOf(target);
}

/** The schema record the schemas actions answer with (spec's schema record fields). */
export function renderSchema(s: CustomSchema): Record<string, unknown> {
  return {
    id: String(s.id),
    name: s.name,
    labels: s.labels,
    objectTypeId: s.objectTypeId,
    fullyQualifiedName: s.fullyQualifiedName,
    requiredProperties: s.requiredProperties,
    searchableProperties: s.searchableProperties,
    primaryDisplayProperty: s.primaryDisplayProperty,
    secondaryDisplayProperties: s.secondaryDisplayProperties,
    description: s.description,
    allowsSensitiveProperties: false,
    archived: s.archived,
    restorable: true,
    metaType: 'PORTAL_SPECIFIC',
    createdByUserId: 1,
    updatedByUserId: 1,
    properties: s.properties.map((p, i) => ({
      name: p.name,
      label: p.label,
      type: p.type,
      fieldType: p.fieldType,
      groupName: `${s.name}_information`,
      description: p.description,
      options: p.options.map((o, j) => ({ ...o, displayOrder: j, hidden: false })),
      displayOrder: i,
      calculated: false,
      externalOptions: false,
      hasUniqueValue: p.hasUniqueValue,
      hidden: false,
      hubspotDefined: false,
      formField: true,
      archived: false,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
      modificationMetadata: { archivable: true, readOnlyDefinition: false, readOnlyValue: false },
    })),
    associations: s.associatedObjects.map((target) => ({
      id: String(customAssociationTypeId(s.id, target)),
      name: `${s.name}_to_${ENTITIES[target].singular}`,
      fromObjectTypeId: s.objectTypeId,
      toObjectTypeId: ENTITIES[target].typeId,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    })),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
