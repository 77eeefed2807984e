import { createRequire } from 'node:module';
import type { Agent as AgentClass, Dispatcher, Pool as PoolClass } from 'undici';

/**
 * undici's Pool and Agent, loaded from their own files. `import { Pool } from 'undici'` runs undici's index,
 * which also loads fetch, WebSocket, cookies, the mock agent and the cache store: 140–190 ms of every CLI
 * start on this project's machine against ~65 ms for the dispatchers and their request API (bench/README.md,
 * issue 29). undici 7 publishes no `exports` map, so these files are part of what it ships; the types stay
 * undici's. What its index does to make `dispatcher.request()` exist is done here the same way.
 */
const require = createRequire(import.meta.url);

const dispatcherClass = require('undici/lib/dispatcher/dispatcher.js') as { prototype: Dispatcher };
Object.assign(dispatcherClass.prototype, require('undici/lib/api/index.js') as Partial<Dispatcher>);

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof PoolClass;
export type Pool = PoolClass;
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof AgentClass;
export type Agent = AgentClass;
