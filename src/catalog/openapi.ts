// actions.js and routes.js, not the client's index: `recipe validate` reads catalogs without loading undici.
import { writes } from '../client/actions.js';
import { declaresIdempotencyKey } from '../client/openapi.js';
import { isExecuteTemplate } from '../client/routes.js';
import { pagingOf } from './paging.js';
import type { CatalogAction, CatalogType, ConnectorCatalog, JsonSchema } from './types.js';

type Obj = Record<string, unknown>;

/**
 * The catalog a service describes in its OpenAPI document: the execute request body's oneOf has one variant
 * per connector type, entity and action (x-connector-type, x-source-definition-id, entity and action as
 * const, the params schema). Such a catalog is complete: it lists every type the service has.
 */
export function catalogFromOpenApi(doc: Obj, source: string): ConnectorCatalog {
  const types = new Map<string, { definitionId?: string; actions: CatalogAction[] }>();
  for (const variant of executeVariants(doc)) {
    const props = (variant.properties ?? {}) as Record<string, Obj>;
    const entity = props.entity?.const;
    const action = props.action?.const;
    const typeName = variant['x-connector-type'];
    if (typeof entity !== 'string' || typeof action !== 'string' || typeof typeName !== 'string') continue;
    const params = (props.params ?? { type: 'object' }) as JsonSchema;
    // The client's one definition: the service's word (x-write), else its name rule.
    const write = writes(variant['x-write'], entity, action);
    const entry = types.get(typeName) ?? { actions: [] };
    if (typeof variant['x-source-definition-id'] === 'string') entry.definitionId = variant['x-source-definition-id'];
    entry.actions.push({
      entity,
      action,
      summary: typeof variant.description === 'string' ? variant.description : '',
      write,
      paging: pagingOf(action, params),
      params,
    });
    types.set(typeName, entry);
  }
  return {
    source,
    complete: true,
    idempotencyKeys: declaresIdempotencyKey(doc),
    types: [...types].map(([name, t]): CatalogType => {
      const entities = [...new Set(t.actions.map((a) => a.entity))].map((e) => ({
        name: e,
        actions: t.actions.filter((a) => a.entity === e),
      }));
      return { name, slug: name.toLowerCase(), ...(t.definitionId ? { definitionId: t.definitionId } : {}), entities };
    }),
  };
}

/** The variants of the execute request body (the POST operation of execute's path). */
function executeVariants(doc: Obj): Obj[] {
  const paths = (doc.paths ?? {}) as Record<string, Obj>;
  for (const [path, item] of Object.entries(paths)) {
    if (!isExecuteTemplate(path)) continue;
    const body = ((item.post as Obj | undefined)?.requestBody as Obj | undefined)?.content as Obj | undefined;
    const schema = (body?.['application/json'] as Obj | undefined)?.schema as Obj | undefined;
    if (Array.isArray(schema?.oneOf)) return schema.oneOf as Obj[];
  }
  return [];
}
