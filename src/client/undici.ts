/**
 * undici's Pool and Agent, loaded from their own files. `import { Pool } from 'undici'` runs undici's index,
 * which also loads fetch, WebSocket, cookies, the mock agent and the cache store: 140–190 ms of every CLI
 * start on this project's machine against ~65 ms for the dispatchers (bench/README.md, issue 29). undici 7
 * publishes no `exports` map, so these files are part of what it ships; the types stay undici's. Only
 * `dispatch()` is used (http.ts), so the request API its index adds to every dispatcher is not loaded.
 * HTTP/1.1 only: the CLI bundle answers undici's `node:http2` with its own fallback (scripts/build-cli-bundle.mjs),
 * so a Pool here must never be given `allowH2`.
 */
import PoolClass from 'undici/lib/dispatcher/pool.js';
import AgentClass from 'undici/lib/dispatcher/agent.js';

export const Pool = PoolClass;
export type Pool = InstanceType<typeof PoolClass>;
export const Agent = AgentClass;
export type Agent = InstanceType<typeof AgentClass>;
