import { ServiceError } from '../../core/errors.js';
import type { ActionContext, ActionResult } from '../../core/connector-type.js';
import { apiSearch } from './actions/api-search.js';
import { archiveRecord } from './actions/archive.js';
import { createAssociation, deleteAssociations, listAssociations } from './actions/associations.js';
import { createRecord } from './actions/create.js';
import { getRecordAction } from './actions/get.js';
import { listRecords } from './actions/list.js';
import { updateRecord } from './actions/update.js';
import { getObjectAction, getSchemaAction, listObjectsAction, listSchemasAction } from './actions/schemas-objects.js';
import { ENTITIES, isRecordEntity } from './entities.js';
import { standardType } from './object-types.js';
import { ownValue } from '../../core/own.js';

type Handler = (ctx: ActionContext, params: Record<string, unknown>) => Promise<ActionResult>;

const OTHER: Record<string, Record<string, Handler>> = {
  schemas: { list: listSchemasAction, get: getSchemaAction },
  objects: { list: listObjectsAction, get: getObjectAction },
  associations: { list: listAssociations, create: createAssociation, delete: deleteAssociations },
};

/** Dispatches one execute call of the CRM connector (params already validated against the action's schema). */
export async function executeCrm(
  ctx: ActionContext,
  entity: string,
  action: string,
  params: Record<string, unknown>,
): Promise<ActionResult> {
  if (isRecordEntity(entity)) {
    const spec = ENTITIES[entity];
    const type = standardType(entity);
    switch (action) {
      case 'list':
        return listRecords(ctx, entity, type, params);
      case 'get':
        return getRecordAction(ctx, type, spec.idParam, params);
      case 'create':
        return createRecord(ctx, type, params);
      case 'update':
        return updateRecord(ctx, type, spec.idParam, params);
      case 'delete':
        if (spec.activity) return archiveRecord(ctx, type, spec.idParam, params);
        break;
      case 'api_search':
        if (!spec.activity) return apiSearch(ctx, type, params);
        break;
      case 'context_store_search':
        // The CRM owns the records, the context store owns the index: the search is the context store's.
        if (ctx.contextStore) return ctx.contextStore.search(ctx, entity, params);
        throw new ServiceError('H400_CONTEXT_STORE_UNAVAILABLE', {}, { field: 'action' });
    }
  } else {
    const handlers = ownValue(OTHER, entity);
    const handler = handlers && ownValue(handlers, action);
    if (handler) return handler(ctx, params);
  }
  // Unreachable through execute (the route checks entity and action against the descriptors first).
  throw new ServiceError(
    'H400_UNKNOWN_ACTION',
    { type: 'CRM', entity, action, valid: '(see inspect)' },
    { field: 'action' },
  );
}
