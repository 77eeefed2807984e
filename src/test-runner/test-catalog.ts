import { embeddedCatalog, type ConnectorCatalog } from '../catalog/index.js';
import { catalogForService } from '../catalog/service-catalog.js';
import type { ConnectionConfig } from '../client/index.js';

/**
 * The catalog tested recipes are checked against: the embedded service's types (cases run on it, or replay
 * cassettes), or with --record the catalog of the live service the cassettes are recorded from.
 */
export function testCatalog(live: ConnectionConfig | undefined): Promise<ConnectorCatalog | undefined> {
  if (!live) return Promise.resolve(embeddedCatalog());
  return catalogForService(live.baseUrl, process.cwd(), (message) => process.stderr.write(`${message}\n`));
}
