import { CUSTOM_ASSOCIATION_TARGETS, customAssociationTypeId } from './custom-schema.js';
import { ACTIVITY_ENTITIES, type RecordEntity } from './entities.js';
import type { ObjectType } from './object-types.js';

/** One PLATFORM_DEFINED association type in one direction. */
export interface AssociationTypeDef {
  readonly from: string;
  readonly to: string;
  readonly typeId: number;
  /** The type id of the same association seen from the other record. */
  readonly inverseId: number;
  /** null for the unlabeled (default) type; "Primary" etc. for labeled ones. */
  readonly label: string | null;
  /** True for the spec's ids that differ from upstream's; accepted, never chosen as a default. */
  readonly alias?: boolean;
}

const defs: AssociationTypeDef[] = [];
function pair(
  a: string,
  b: string,
  ab: number,
  ba: number,
  label: string | null = null,
  labelBack: string | null = label,
): void {
  defs.push({ from: a, to: b, typeId: ab, inverseId: ba, label });
  if (a !== b || ab !== ba) defs.push({ from: b, to: a, typeId: ba, inverseId: ab, label: labelBack });
}

// crm-behaviour.md §6.7 (the spec's table is the same ids): unlabeled first, then primary.
pair('contacts', 'companies', 279, 280);
pair('contacts', 'companies', 1, 2, 'Primary');
pair('deals', 'companies', 341, 342);
pair('deals', 'companies', 5, 6, 'Primary');
pair('tickets', 'companies', 339, 340);
pair('tickets', 'companies', 26, 25, 'Primary');
pair('contacts', 'deals', 4, 3);
pair('contacts', 'tickets', 15, 16);
pair('deals', 'tickets', 27, 28);
pair('contacts', 'contacts', 449, 449);
pair('companies', 'companies', 450, 450);
pair('deals', 'deals', 451, 451);
pair('tickets', 'tickets', 452, 452);
pair('companies', 'companies', 13, 14, 'Parent Company', 'Child Company');

// Records → activity / activity → record (§6.7 engagements table; the spec's activity→record column is the same).
const ENGAGEMENT: Record<string, [number, number, number, number, number]> = {
  // call, email, meeting, note, task (object → activity); activity → object is +1.
  contacts: [193, 197, 199, 201, 203],
  companies: [181, 185, 187, 189, 191],
  deals: [205, 209, 211, 213, 215],
  tickets: [219, 223, 225, 227, 229],
};
const ACTIVITY_ORDER = ['calls', 'emails', 'meetings', 'notes', 'tasks'] as const;
for (const [record, ids] of Object.entries(ENGAGEMENT)) {
  ACTIVITY_ORDER.forEach((activity, i) => pair(record, activity, ids[i]!, ids[i]! + 1));
}
// Where the spec's activity table differs from upstream both ids are accepted: note → ticket is 18 in the
// spec and 228 upstream; task → ticket is 228 in the spec and 230 upstream. The inverse is upstream's.
defs.push({ from: 'notes', to: 'tickets', typeId: 18, inverseId: 227, label: null, alias: true });
defs.push({ from: 'tasks', to: 'tickets', typeId: 228, inverseId: 229, label: null, alias: true });

/** The PLATFORM_DEFINED types between two object types (custom types get derived ids). */
export function platformTypes(from: ObjectType, to: ObjectType): AssociationTypeDef[] {
  if (from.schema || to.schema) return customPairTypes(from, to);
  return defs.filter((d) => d.from === from.key && d.to === to.key);
}

function customPairTypes(from: ObjectType, to: ObjectType): AssociationTypeDef[] {
  if (from.schema && !to.schema && CUSTOM_ASSOCIATION_TARGETS.includes(to.key as RecordEntity)) {
    const id = customAssociationTypeId(from.schema.id, to.key as RecordEntity);
    return [{ from: from.key, to: to.key, typeId: id, inverseId: id + 1, label: null }];
  }
  if (to.schema && !from.schema && CUSTOM_ASSOCIATION_TARGETS.includes(from.key as RecordEntity)) {
    const id = customAssociationTypeId(to.schema.id, from.key as RecordEntity);
    return [{ from: from.key, to: to.key, typeId: id + 1, inverseId: id, label: null }];
  }
  return [];
}

/** The unlabeled default type between two object types, if the pair has one. */
export function defaultType(from: ObjectType, to: ObjectType): AssociationTypeDef | null {
  return platformTypes(from, to).find((d) => d.label === null && !d.alias) ?? null;
}

/** The typeIds the spec allows for an activity's create-time association to a record type. */
export function activityTypeIds(activity: ObjectType, target: ObjectType): number[] {
  return platformTypes(activity, target).map((d) => d.typeId);
}

/** Looks up a PLATFORM_DEFINED type by id for a pair; null when the id does not belong to that pair. */
export function findPlatformType(from: ObjectType, to: ObjectType, typeId: number): AssociationTypeDef | null {
  return platformTypes(from, to).find((d) => d.typeId === typeId) ?? null;
}

/**
 * An associationTypeId as a caller gives it: a number, or the symbolic name of one of the pair's
 * PLATFORM_DEFINED types (deal_to_company, contact_to_company_unlabeled: the names v3TypeName gives).
 * Gives the numeric id, or null when the name is not one of the pair's.
 */
export function resolveTypeRef(ref: unknown, from: ObjectType, to: ObjectType): number | null {
  if (typeof ref === 'number') return ref;
  const def = platformTypes(from, to).find(
    (d) => !d.alias && v3TypeName(from, to, 'PLATFORM_DEFINED', d.typeId) === ref,
  );
  return def ? def.typeId : null;
}

/** The symbolic names of the pair's PLATFORM_DEFINED types, for error messages. */
export function typeNamesOf(from: ObjectType, to: ObjectType): string[] {
  return platformTypes(from, to)
    .filter((d) => !d.alias)
    .map((d) => v3TypeName(from, to, 'PLATFORM_DEFINED', d.typeId));
}

/** Every PLATFORM_DEFINED type between standard object types, in table order (for the catalog's data file). */
export function standardTypeDefs(): readonly AssociationTypeDef[] {
  return defs;
}

/** The v3 embedded association `type` name, e.g. contact_to_company or contact_to_company_unlabeled. */
export function v3TypeName(from: ObjectType, to: ObjectType, category: string, typeId: number): string {
  const base = `${from.singular}_to_${to.singular}`;
  if (category !== 'PLATFORM_DEFINED') return `${base}_${typeId}`;
  const types = platformTypes(from, to);
  const def = types.find((d) => d.typeId === typeId);
  if (!def) return `${base}_${typeId}`;
  if (def.label === 'Primary') return base;
  if (def.label !== null) return `${base}_${def.label.toLowerCase().replace(/\W+/g, '_')}`;
  return types.some((d) => d.label === 'Primary') ? `${base}_unlabeled` : base;
}

/** The v4 label of a stored type: null for unlabeled and USER_DEFINED types without a label. */
export function labelOf(from: ObjectType, to: ObjectType, category: string, typeId: number): string | null {
  if (category !== 'PLATFORM_DEFINED') return null;
  return findPlatformType(from, to, typeId)?.label ?? null;
}

/** True when the entity is one of the five activity kinds. */
export function isActivityKey(key: string): boolean {
  return (ACTIVITY_ENTITIES as readonly string[]).includes(key);
}
