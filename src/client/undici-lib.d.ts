// undici 7 ships these files (it publishes no `exports` map) but types only its index: each is the class
// its index exports under the same name.
declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const PoolClass: typeof Pool;
  export = PoolClass;
}
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export = AgentClass;
}
