import { connectorsPath, inspectPath, workspacesPath } from '../client/index.js';
import type { ConnectorView, EntityReadiness, ServiceView, WorkspaceView } from './api-types.js';

/** The one thing the service page needs from the engine's connector client: authenticated GETs of JSON. */
export interface ServiceReader {
  getJson(
    path: string,
    query: Record<string, string>,
    action: string,
    opts: { signal?: AbortSignal },
  ): Promise<unknown>;
}

/** Pages of workspaces read at most (100 each): a console is for looking, not for crawling an account. */
const MAX_WORKSPACE_PAGES = 10;
/** Inspect calls in flight at once. */
const INSPECT_CONCURRENCY = 8;

/**
 * Reads the service's workspaces, the connectors of each and their context store readiness, over the
 * service's public HTTP API (workspaces, connectors, inspect), exactly as a user with a token would.
 */
export async function readServiceView(
  reader: ServiceReader,
  label: string,
  signal?: AbortSignal,
): Promise<ServiceView> {
  const opts = signal ? { signal } : {};
  const workspaces: { id: string; name: string; status: string }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_WORKSPACE_PAGES; page++) {
    const body = obj(
      await reader.getJson(workspacesPath(), { limit: '100', ...(cursor ? { cursor } : {}) }, 'workspaces', opts),
    );
    for (const w of arr(body.data)) {
      const row = obj(w);
      if (typeof row.id === 'string')
        workspaces.push({ id: row.id, name: str(row.name) ?? row.id, status: str(row.status) ?? 'active' });
    }
    cursor = cursorOf(body.next);
    if (!cursor) break;
  }
  const views: WorkspaceView[] = [];
  for (const w of workspaces) {
    const body = obj(await reader.getJson(connectorsPath(), { workspace_id: w.id }, 'connectors', opts));
    const rows = arr(body.data).map(obj);
    const connectors = await mapLimited(rows, INSPECT_CONCURRENCY, (row) => connectorView(reader, row, opts));
    views.push({ ...w, connectors });
  }
  return { label, workspaces: views };
}

async function connectorView(
  reader: ServiceReader,
  row: Record<string, unknown>,
  opts: { signal?: AbortSignal },
): Promise<ConnectorView> {
  const id = str(row.id) ?? '';
  const base = { id, name: str(row.name) ?? id, type: str(row.definition_name) ?? '' };
  try {
    const inspect = obj(await reader.getJson(inspectPath(id), {}, 'inspect', opts));
    const readiness = obj(inspect.context_store_readiness);
    const entities: EntityReadiness[] = arr(readiness.configured_cache_entities).map((e) => {
      const r = obj(e);
      return {
        entity: str(r.entity) ?? '',
        status: str(r.status) ?? '',
        ready_for_search: r.ready_for_search === true,
        entity_count: typeof r.entity_count === 'number' ? r.entity_count : null,
        updated_at: str(r.updated_at) ?? null,
      };
    });
    return {
      ...base,
      type: base.type || (str(inspect.source_definition_name) ?? ''),
      context_store_status: str(inspect.context_store_status) ?? null,
      entities,
      warnings: arr(inspect.warnings).map((w) => (typeof w === 'string' ? w : JSON.stringify(w))),
    };
  } catch (err) {
    return { ...base, context_store_status: null, entities: [], warnings: [], error: (err as Error).message };
  }
}

/** The cursor of a `next` URL (the service answers the full URL of the next page, or null). */
function cursorOf(next: unknown): string | undefined {
  if (typeof next !== 'string' || next === '') return undefined;
  try {
    return new URL(next).searchParams.get('cursor') ?? undefined;
  } catch {
    return undefined;
  }
}

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function obj(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
