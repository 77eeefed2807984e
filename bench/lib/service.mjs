// Starts bench/lib/server-child.mjs and talks to the service over HTTP (token, connector, execute).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./server-child.mjs', import.meta.url));

/** Forks a service process; resolves when it listens (after seeding / fixtures). */
export async function startServer(opts) {
  const t0 = performance.now();
  // BENCH_SERVER_PROF=DIR writes a CPU profile of each service process there (see bench/README.md).
  const prof = process.env.BENCH_SERVER_PROF;
  const execArgv = prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [];
  const child = fork(CHILD, [JSON.stringify(opts)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  const [ready] = await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`service process exited with ${code} while starting`);
    }),
  ]);
  if (ready?.kind !== 'ready') throw new Error(`unexpected message from the service process: ${JSON.stringify(ready)}`);
  const server = new ServiceHandle(child, ready);
  server.startMs = performance.now() - t0;
  await server.login();
  return server;
}

/** A running service process and a logged-in HTTP session against it. */
export class ServiceHandle {
  constructor(child, info) {
    this.child = child;
    this.url = info.url;
    this.bareUrl = info.bareUrl;
    this.clientId = info.clientId;
    this.clientSecret = info.clientSecret;
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
    this.token = (await res.json()).access_token;
    const list = await this.get('/api/v1/integrations/connectors?workspace_name=default');
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

  async get(path) {
    const res = await fetch(`${this.url}${path}`, { headers: this.authHeaders });
    if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  }

  /** POST execute; resolves {status, json, text}. */
  async execute(body) {
    const res = await fetch(`${this.url}${this.executePath}`, {
      method: 'POST',
      headers: this.authHeaders,
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: text ? JSON.parse(text) : null };
  }

  /** Context store readiness of one entity (inspect). */
  async readiness(entity) {
    const info = await this.get(`/api/v1/integrations/connectors/${this.connectorId}/inspect`);
    return info.context_store_readiness?.configured_cache_entities?.find((r) => r.entity === entity);
  }

  /** Sets the bodies the bare routes answer. */
  async setBareBodies(get, list) {
    this.child.send({ kind: 'bare', get, list });
    const [msg] = await once(this.child, 'message');
    if (msg?.kind !== 'bare-ok') throw new Error('bare routes not set');
  }

  async stop() {
    if (this.child.exitCode !== null) return;
    this.child.send({ kind: 'stop' });
    await Promise.race([once(this.child, 'exit'), new Promise((r) => setTimeout(r, 10_000))]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}
