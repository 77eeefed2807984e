import type { Kysely } from 'kysely';
import { ServiceError } from '../../../core/errors.js';
import { defaultType, findPlatformType, platformTypes, resolveTypeRef, typeNamesOf } from '../association-types.js';
import { insertAssociation } from '../association-store.js';
import { typeOfKey, type ObjectType } from '../object-types.js';
import { getAnyRecord } from '../records-store.js';
import type { Touched } from '../write-helpers.js';
import type { CoreTables } from '../../../core/tables.js';

/** One association request object of an activity create (spec: to.id + types[]). */
export interface AssociationInput {
  to: { id: string | number };
  /** associationTypeId: a number, or a PLATFORM_DEFINED type name (task_to_deal). */
  types: { associationCategory: string; associationTypeId: number | string }[];
}

/**
 * Stores the associations given with a create, inside its transaction: each target must be a live
 * record, and a PLATFORM_DEFINED type id must be one of the pair's ids (note→ticket accepts 18 and 228).
 * Any failure throws, so the whole create is rolled back.
 */
export async function storeCreateAssociations(
  trx: Kysely<CoreTables>,
  connectorId: string,
  type: ObjectType,
  id: number,
  inputs: readonly AssociationInput[],
  touched: Touched,
): Promise<void> {
  for (const [i, input] of inputs.entries()) {
    const field = `params.associations[${i}]`;
    const raw = String(input.to.id);
    const target = /^\d{1,15}$/.test(raw) ? await getAnyRecord(trx, connectorId, Number(raw)) : null;
    if (!target || target.id === id) {
      throw new ServiceError(
        'H404',
        { message: `association target record "${raw}" not found` },
        { field: `${field}.to.id`, details: { id: raw } },
      );
    }
    const targetType = (await typeOfKey(trx, connectorId, target.type))!;
    for (const [j, t] of input.types.entries()) {
      const tField = `${field}.types[${j}].associationTypeId`;
      if (t.associationCategory === 'PLATFORM_DEFINED') {
        const typeId = resolveTypeRef(t.associationTypeId, type, targetType);
        if (typeId === null) {
          throw new ServiceError(
            'H400',
            {
              message: `associationTypeId "${String(t.associationTypeId)}" is not a PLATFORM_DEFINED type name from ${type.key} to ${targetType.key} (record ${raw}); names for this pair: ${typeNamesOf(type, targetType).join(', ') || 'none'}`,
            },
            { field: tField, details: { allowed_names: typeNamesOf(type, targetType) } },
          );
        }
        const def = findPlatformType(type, targetType, typeId);
        if (!def) {
          const allowed = platformTypes(type, targetType).map((d) => d.typeId);
          throw new ServiceError(
            'H400_INVALID_ASSOCIATION_TYPE',
            {
              message: `associationTypeId ${t.associationTypeId} does not link ${type.key} to ${targetType.key} (record ${raw}); PLATFORM_DEFINED ids for this pair: ${allowed.join(', ') || 'none'}`,
            },
            { field: tField, details: { allowed } },
          );
        }
        await insertAssociation(
          trx,
          connectorId,
          { id, type: type.key },
          target,
          'PLATFORM_DEFINED',
          def.typeId,
          def.inverseId,
        );
        if (def.label !== null) await ensureDefault(trx, connectorId, type, id, targetType, target.id);
      } else {
        if (typeof t.associationTypeId !== 'number') {
          throw new ServiceError(
            'H400',
            {
              message:
                'associationTypeId must be a number for USER_DEFINED associations (names are for PLATFORM_DEFINED types)',
            },
            { field: tField },
          );
        }
        await insertAssociation(
          trx,
          connectorId,
          { id, type: type.key },
          target,
          t.associationCategory,
          t.associationTypeId,
          t.associationTypeId,
        );
        await ensureDefault(trx, connectorId, type, id, targetType, target.id);
      }
      touched.add(target.type, target.id);
    }
  }
}

/** A labeled association always comes with the pair's unlabeled one (crm-behaviour.md §6.2). */
export async function ensureDefault(
  trx: Kysely<CoreTables>,
  connectorId: string,
  fromType: ObjectType,
  fromId: number,
  toType: ObjectType,
  toId: number,
): Promise<void> {
  const def = defaultType(fromType, toType);
  if (def)
    await insertAssociation(
      trx,
      connectorId,
      { id: fromId, type: fromType.key },
      { id: toId, type: toType.key },
      'PLATFORM_DEFINED',
      def.typeId,
      def.inverseId,
    );
}
