import type { CatalogEntry } from './types.js';

/**
 * X: running a plan (asserts, fail steps, paging guards, timeouts). Owned by src/run/.
 * C: configuration, authentication and the connector API as seen by the client. Owned by src/client/.
 */
export const runCodes = {
  X001: { template: '{message}', class: 'run' },
  C001: { template: 'configuration: {reason}', class: 'config' },
} satisfies Record<string, CatalogEntry>;
