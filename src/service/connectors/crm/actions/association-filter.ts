import { sql, type SqlBool } from 'kysely';
import { ServiceError } from '../../../core/errors.js';
import type { ActionContext } from '../../../core/connector-type.js';
import { resolveObjectType, type ObjectType } from '../object-types.js';
import { checkFilterLengths, type CompiledFilter, type SearchFilter } from './search-filter.js';

/**
 * The `associations.<type>` pseudo-property of api_search (crm-behaviour.md §4): EQ / IN match records
 * associated with the given record id(s), NEQ / NOT_IN the others: a subquery on crm_associations.
 */
export async function compileAssociationFilter(
  ctx: ActionContext,
  searched: ObjectType,
  f: SearchFilter,
  field: string,
): Promise<CompiledFilter> {
  checkFilterLengths(f, field);
  const ref = f.propertyName.slice('associations.'.length);
  const target = await resolveObjectType(ctx.store.db, ctx.connector.id, ref);
  if (!target)
    throw new ServiceError(
      'H400_INVALID_FILTER',
      { message: `${f.propertyName}: "${ref}" is not an object type` },
      { field: `${field}.propertyName` },
    );
  let values: string[];
  if (f.operator === 'EQ' || f.operator === 'NEQ') {
    if (f.value === undefined)
      throw new ServiceError(
        'H400_INVALID_FILTER',
        { message: `operator ${f.operator} needs value` },
        { field: `${field}.value` },
      );
    values = [String(f.value)];
  } else if (f.operator === 'IN' || f.operator === 'NOT_IN') {
    if (!f.values || f.values.length === 0)
      throw new ServiceError(
        'H400_INVALID_FILTER',
        { message: `operator ${f.operator} needs a non-empty values array` },
        { field: `${field}.values` },
      );
    values = f.values.map(String);
  } else {
    throw new ServiceError(
      'H400_INVALID_FILTER',
      { message: `${f.propertyName} supports EQ, NEQ, IN and NOT_IN` },
      { field: `${field}.operator` },
    );
  }
  const targetIds = values.filter((v) => /^\d{1,15}$/.test(v)).map(Number);
  // Associations are stored in both directions: the targets' rows towards the searched type name the matches.
  const associated =
    targetIds.length === 0
      ? sql<SqlBool>`0`
      : sql<SqlBool>`id IN (SELECT to_id FROM crm_associations WHERE connector_id = ${ctx.connector.id} AND from_id IN (${sql.join(targetIds)}) AND to_type = ${searched.key} AND from_type = ${target.key})`;
  const positive = f.operator === 'EQ' || f.operator === 'IN';
  return { sql: positive ? associated : sql<SqlBool>`NOT ${associated}`, sortKey: null };
}
