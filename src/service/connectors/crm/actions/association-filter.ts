import { sql, type SqlBool } from 'kysely';
import { ServiceError } from '../../../core/errors.js';
import type { ActionContext } from '../../../core/connector-type.js';
import { crmDb } from '../db.js';
import { resolveObjectType, type ObjectType } from '../object-types.js';
import type { CompiledFilter, SearchFilter } from './search-filter.js';

/** Above this many matching records the id list is not pushed into the SQL prefilter. */
const MAX_PREFILTER_IDS = 1000;

/**
 * The `associations.<type>` pseudo-property of api_search (crm-behaviour.md §4): EQ / IN match records
 * associated with the given record id(s), NEQ / NOT_IN the others. The matching ids are read first, so
 * the filter is exact in both SQL and JS.
 */
export async function compileAssociationFilter(
  ctx: ActionContext,
  searched: ObjectType,
  f: SearchFilter,
  field: string,
): Promise<CompiledFilter> {
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
  const rows =
    targetIds.length === 0
      ? []
      : await crmDb(ctx.store.db)
          .selectFrom('crm_associations')
          .select('to_id')
          .distinct()
          .where('connector_id', '=', ctx.connector.id)
          .where('from_id', 'in', targetIds)
          .where('from_type', '=', target.key)
          .where('to_type', '=', searched.key)
          .execute();
  const matching = new Set(rows.map((r) => r.to_id));
  const positive = f.operator === 'EQ' || f.operator === 'IN';
  const ids = [...matching];
  return {
    sql:
      positive && ids.length <= MAX_PREFILTER_IDS
        ? ids.length === 0
          ? sql<SqlBool>`0`
          : sql<SqlBool>`id in (${sql.join(ids)})`
        : null,
    test: (props) => matching.has(Number(props.hs_object_id)) === positive,
  };
}
