// Starts bench/lib/server-child.mjs and talks to the service over HTTP (token, connector, execute).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./server-child.mjs', import.meta.url));

/**
 * How the service process starts (passed to server-child.mjs as JSON): the demo seed of `seedSize` contacts,
 * or a fixtures file; `holdIndex` keeps the context store in Loading so no index build competes; `db` is a
 * database file to open (and keep) instead of a fresh in-memory one, with fixed `clientId`/`clientSecret` so a
 * reopened file keeps its organization; `rateLimit` is the service's --rate-limit (requests per second per token);
 * `dist` is another build's dist/index.js to start instead of this checkout's (bench --base); `indexBatch` the
 * context store build's records per step.
 * @typedef {{ seedSize?: number, fixtures?: string, holdIndex?: boolean, db?: string, clientId?: string, clientSecret?: string, rateLimit?: number, dist?: string, indexBatch?: number }} ServerOptions
 */

/**
 * The service process's first message, once it listens.
 * @typedef {{ kind: 'ready', url: string, bareUrl: string, clientId: string, clientSecret: string, rssMb: number }} ReadyMessage
 */

/** @typedef {ReadyMessage | { kind: 'bare-ok' } | { kind: 'cpu', ms: number }} FromChild  Messages from server-child.mjs. */

/** @typedef {{ kind: 'bare', get: unknown, list: unknown } | { kind: 'cpu' } | { kind: 'stop' }} ToChild  Messages to server-child.mjs. */

/** @typedef {{ entity: string, action: string, params?: Record<string, unknown> }} ExecuteBody */

/** @typedef {{ status: number, text: string, json: unknown }} ExecuteAnswer  `json` is null for an empty body. */

/**
 * The part of a CRM list answer the benchmarks read.
 * @typedef {object} ListEnvelope
 * @property {Array<{ id: string, properties: Record<string, string | null | undefined> }>} result
 * @property {{ has_next_page: boolean, end_cursor?: string | null }} connector_metadata
 */

/**
 * The part of a context_store_search answer the benchmarks read.
 * @typedef {{ result: { data: unknown[], meta: { took_ms?: unknown } } }} SearchEnvelope
 */

/** @typedef {{ entity: string, status: string, entity_count?: number }} EntityReadiness  One entity of inspect's context store readiness. */

/**
 * Forks a service process; resolves when it listens (after seeding / fixtures).
 * @param {ServerOptions} opts
 */
export async function startServer(opts) {
  const t0 = performance.now();
  // BENCH_SERVER_PROF=DIR writes a CPU profile of each service process there (see bench/README.md).
  const prof = process.env.BENCH_SERVER_PROF;
  const execArgv = prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [];
  const child = fork(CHILD, [JSON.stringify(opts)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  const [first] = await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`service process exited with ${code} while starting`);
    }),
  ]);
  /** @type {FromChild | undefined} */
  const ready = first;
  if (ready?.kind !== 'ready') throw new Error(`unexpected message from the service process: ${JSON.stringify(ready)}`);
  const server = new ServiceHandle(child, ready, performance.now() - t0);
  await server.login();
  return server;
}

/** A running service process and a logged-in HTTP session against it. */
export class ServiceHandle {
  /**
   * @param {import('node:child_process').ChildProcess} child
   * @param {ReadyMessage} info
   * @param {number} startMs  from fork to listening (seeded, fixtures loaded)
   */
  constructor(child, info, startMs) {
    this.child = child;
    this.url = info.url;
    this.bareUrl = info.bareUrl;
    this.clientId = info.clientId;
    this.clientSecret = info.clientSecret;
    this.startMs = startMs;
    /** Bearer token; set by login(). */
    this.token = '';
    /** The default workspace's CRM connector; set by login(). */
    this.connectorId = '';
  }

  /** Environment for `recipe run` and the hand-written scripts. */
  get env() {
    return {
      CONNECTOR_API_URL: this.url,
      CONNECTOR_CLIENT_ID: this.clientId,
      CONNECTOR_CLIENT_SECRET: this.clientSecret,
      CONNECTOR_WORKSPACE: 'default',
    };
  }

  async login() {
    const res = await fetch(`${this.url}/api/v1/account/applications/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: this.clientId, client_secret: this.clientSecret }),
    });
    if (res.status !== 200) throw new Error(`token: HTTP ${res.status}`);
    this.token = /** @type {{ access_token: string }} */ (await res.json()).access_token;
    const list = /** @type {{ data: Array<{ id: string, definition_name: string }> }} */ (
      await this.get('/api/v1/integrations/connectors?workspace_name=default')
    );
    const crm = list.data.find((c) => c.definition_name === 'CRM');
    if (!crm) throw new Error('no CRM connector in the default workspace');
    this.connectorId = crm.id;
  }

  get authHeaders() {
    return { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' };
  }

  get executePath() {
    return `/api/v1/integrations/connectors/${this.connectorId}/execute`;
  }

  /**
   * GET with the session's token; the parsed body of a 200 answer.
   * @param {string} path
   * @returns {Promise<unknown>}
   */
  async get(path) {
    const res = await fetch(`${this.url}${path}`, { headers: this.authHeaders });
    if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  }

  /**
   * POST execute; resolves {status, json, text}.
   * @param {ExecuteBody} body
   * @returns {Promise<ExecuteAnswer>}
   */
  async execute(body) {
    const res = await fetch(`${this.url}${this.executePath}`, {
      method: 'POST',
      headers: this.authHeaders,
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: text ? JSON.parse(text) : null };
  }

  /**
   * Context store readiness of one entity (inspect); undefined when inspect does not list it.
   * @param {string} entity
   */
  async readiness(entity) {
    const info = /** @type {{ context_store_readiness?: { configured_cache_entities?: EntityReadiness[] } }} */ (
      await this.get(`/api/v1/integrations/connectors/${this.connectorId}/inspect`)
    );
    return info.context_store_readiness?.configured_cache_entities?.find((r) => r.entity === entity);
  }

  /**
   * Sets the bodies the bare routes answer.
   * @param {unknown} get
   * @param {unknown} list
   */
  async setBareBodies(get, list) {
    this.#send({ kind: 'bare', get, list });
    const [answer] = await once(this.child, 'message');
    /** @type {FromChild | undefined} */
    const msg = answer;
    if (msg?.kind !== 'bare-ok') throw new Error('bare routes not set');
  }

  /** CPU time (user + system, ms) the service process has used so far: steadier than wall time on a loaded machine. */
  async cpuMs() {
    this.#send({ kind: 'cpu' });
    const [answer] = await once(this.child, 'message');
    /** @type {FromChild | undefined} */
    const msg = answer;
    if (msg?.kind !== 'cpu') throw new Error('no CPU time from the service process');
    return msg.ms;
  }

  async stop() {
    if (this.child.exitCode !== null) return;
    this.#send({ kind: 'stop' });
    await Promise.race([once(this.child, 'exit'), new Promise((r) => setTimeout(r, 10_000))]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  /** @param {ToChild} msg */
  #send(msg) {
    this.child.send(msg);
  }
}
