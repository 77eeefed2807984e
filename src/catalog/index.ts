/**
 * catalog/: the connector catalog (entities, actions, params schemas, which actions write and how they page)
 * and the checks of connector calls against it. Offline: fed from schemas/connectors/ or from a service's
 * OpenAPI document that the caller fetched. Never imports the service.
 */
export type * from './types.js';
export { embeddedCatalog } from './embedded.js';
export { findType, findEntity, findAction } from './lookup.js';
export { checkParams, describePath, fieldPath, type ParamProblem, type ParamPath } from './check-params.js';
export { checkAssociations } from './check-associations.js';
export { checkReadProperties } from './check-properties.js';
export { hintFor, listNames } from './names.js';
export { catalogFromOpenApi } from './openapi.js';
export { catalogCacheFile, readCachedCatalog, writeCachedCatalog } from './cache.js';
export { editorSchema, editorSchemaText } from './editor-schema.js';
export { renderAction, renderAssociationTypes, renderCatalogIndex, renderEntity } from './render-docs.js';
