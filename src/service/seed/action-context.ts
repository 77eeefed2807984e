import type { ActionContext, ConnectorInstance } from '../connectors/types.js';
import type { ServiceContext } from '../http/service-context.js';

/** An ActionContext outside a request (seeding, fixtures), with the service's clock and change listeners. */
export function backgroundActionContext(
  svc: ServiceContext,
  connector: ConnectorInstance,
  baseUrl: string,
): ActionContext {
  return {
    store: svc.store,
    connector,
    now: svc.now,
    baseUrl,
    notifyChange: (entity, ids) => svc.emitChange({ connector, entity, ids }),
  };
}
