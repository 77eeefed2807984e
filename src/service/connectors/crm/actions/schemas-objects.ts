import { ServiceError } from '../../../core/errors.js';
import type { ActionContext, ActionResult } from '../../../core/connector-type.js';
import { renderSchema } from '../custom-schema.js';
import { findSchema, listSchemas, resolveObjectType, type ObjectType } from '../object-types.js';
import { jsonResult } from '../paging.js';
import { getRecordAction } from './get.js';
import { listRecords } from './list.js';

/** schemas list: every custom object schema (archived=true: only archived ones). */
export async function listSchemasAction(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  const schemas = await listSchemas(ctx.store.db, ctx.connector.id, params.archived === true);
  return jsonResult(schemas.map(renderSchema), {
    has_next_page: false,
    end_cursor: null,
    next_cursor: null,
    next_link: null,
  });
}

/** schemas get: one schema by objectTypeId ("2-<n>"), fullyQualifiedName ("p<portal>_<name>"), "p_<name>" or name. */
export async function getSchemaAction(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  const ref = String(params.objectType);
  const schema = await findSchema(ctx.store.db, ctx.connector.id, ref);
  if (!schema)
    throw new ServiceError('H404', { message: `object schema "${ref}" not found` }, { field: 'params.objectType' });
  return jsonResult(renderSchema(schema), {});
}

async function objectType(ctx: ActionContext, params: Record<string, unknown>): Promise<ObjectType> {
  const ref = String(params.objectType);
  const type = await resolveObjectType(ctx.store.db, ctx.connector.id, ref);
  if (!type)
    throw new ServiceError(
      'H404',
      { message: `object type "${ref}" not found (use a custom object type id like 2-1 or its fully qualified name)` },
      { field: 'params.objectType' },
    );
  return type;
}

/** objects list: records of a custom (or standard) object type, paged with after. */
export async function listObjectsAction(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  return listRecords(ctx, 'objects', await objectType(ctx, params), params);
}

/** objects get: one record by objectId, or by a unique property of the schema with idProperty. */
export async function getObjectAction(ctx: ActionContext, params: Record<string, unknown>): Promise<ActionResult> {
  return getRecordAction(ctx, await objectType(ctx, params), 'objectId', params);
}
