import path from 'node:path';
import { apiUrl, connectorsPath, inspectPath, tokenPath, workspacesPath } from '../client/index.js';
import { TEST_CREDENTIALS } from './service-slot.js';
import type { DataSource } from './test-file.js';

/** Why a file's data could not be prepared (a fixture file the service refuses); reported as T003. */
export class TemplateError extends Error {}

/** How long the context store of a template may take to index its data. */
const READY_TIMEOUT_MS = 60_000;

/**
 * Template databases: one per data source and clock, each built once by starting the embedded service on a new
 * database with the test application, loading the fixtures or the seed, and waiting until the context store has
 * indexed everything. Cases start from a copy. Each template has an organization of its own, so tokens are
 * cached per template (see TokenCache).
 */
export class Templates {
  private readonly built = new Map<string, Promise<string>>();

  constructor(private readonly dir: string) {}

  /** The template for a data source at a clock (ISO time, or undefined for the wall clock). */
  get(data: DataSource, now: string | undefined): Promise<string> {
    const key = JSON.stringify([data, now ?? null]);
    let template = this.built.get(key);
    if (!template) {
      template = this.build(data, now, path.join(this.dir, `template-${this.built.size + 1}.db`));
      this.built.set(key, template);
    }
    return template;
  }

  private async build(data: DataSource, now: string | undefined, file: string): Promise<string> {
    const { startService } = await import('../service/start.js');
    const at = now === undefined ? undefined : new Date(now);
    let service;
    try {
      service = await startService({
        db: file,
        ...TEST_CREDENTIALS,
        ...(data.kind === 'fixtures'
          ? { fixtures: data.path }
          : { seed: data.seed, ...(data.size !== undefined ? { seedSize: data.size } : {}) }),
        ...(at ? { now: () => at } : {}),
        logLevel: 'silent',
      });
    } catch (err) {
      throw new TemplateError((err as Error).message);
    }
    try {
      await waitUntilIndexed(service.url);
    } finally {
      await service.close();
    }
    return file;
  }
}

/** Polls inspect for every connector of every workspace until each context store is Ready. */
async function waitUntilIndexed(url: string): Promise<void> {
  const tokenRes = await fetch(apiUrl(url, tokenPath()), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: TEST_CREDENTIALS.clientId, client_secret: TEST_CREDENTIALS.clientSecret }),
  });
  const { access_token: token } = (await tokenRes.json()) as { access_token: string };
  const get = async (p: string) =>
    (await (await fetch(apiUrl(url, p), { headers: { authorization: `Bearer ${token}` } })).json()) as Record<
      string,
      unknown
    >;
  const workspaces = ((await get(`${workspacesPath()}?limit=100`)).data as { name: string }[]).map((w) => w.name);
  const connectors: string[] = [];
  for (const w of workspaces) {
    const list = (await get(`${connectorsPath()}?workspace_name=${encodeURIComponent(w)}`)).data as {
      id: string;
    }[];
    connectors.push(...list.map((c) => c.id));
  }
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (const id of connectors) {
    for (;;) {
      const info = await get(inspectPath(id));
      if (info.context_store_readiness === null || info.context_store_status === 'Ready') break;
      if (Date.now() > deadline)
        throw new TemplateError(`the context store of connector ${id} did not finish indexing`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
