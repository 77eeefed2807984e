import { RecipeError } from '../errors/index.js';
import type { CallOptions } from './call-options.js';
import { connectorsPath, definitionsPath } from './routes.js';

/** A connector named by id, or by workspace (defaulted) and definition (name or id). */
export type ConnectorLookup = { readonly id: string } | { readonly workspace?: string; readonly definition: string };

type GetJson = (path: string, query: Record<string, string>, action: string, opts: CallOptions) => Promise<unknown>;

interface DefinitionRow {
  id: string;
  name: string;
}

/**
 * Finds connector ids through the definitions catalog and the connectors lookup. Results (and the
 * promises in flight) are cached, so a run looks each pair up once however many steps use it.
 */
export class ConnectorResolver {
  private readonly cache = new Map<string, Promise<string>>();

  constructor(private readonly getJson: GetJson) {}

  async resolve(ref: ConnectorLookup, defaultWorkspace: string, opts: CallOptions): Promise<string> {
    if ('id' in ref) return ref.id;
    const workspace = ref.workspace ?? defaultWorkspace;
    const key = JSON.stringify([workspace, ref.definition.toLowerCase()]);
    let found = this.cache.get(key);
    if (!found) {
      found = this.lookup(workspace, ref.definition, opts);
      this.cache.set(key, found);
      // A failed lookup is not cached: the next step may try again (e.g. after a transient error).
      found.catch(() => this.cache.delete(key));
    }
    return found;
  }

  private async lookup(workspace: string, definition: string, opts: CallOptions): Promise<string> {
    const def = await this.findDefinition(definition, opts);
    let body: unknown;
    try {
      body = await this.getJson(connectorsPath(), { workspace_name: workspace, definition_id: def.id }, 'lookup', opts);
    } catch (err) {
      // An unknown workspace (404) or a refused lookup (400) is a configuration problem, not a run failure.
      if (
        err instanceof RecipeError &&
        err.code === 'C005' &&
        (err.params.status === 404 || err.params.status === 400)
      ) {
        throw new RecipeError('C004', { reason: `workspace "${workspace}": ${String(err.params.serviceMessage)}` });
      }
      throw err;
    }
    const connectors = rows(body).filter((c) => {
      const d = c.definition_id ?? c.definitionId ?? c.source_definition_id;
      return d === undefined || d === def.id;
    });
    if (connectors.length === 1 && typeof connectors[0]?.id === 'string') return connectors[0].id;
    if (connectors.length === 0) {
      throw new RecipeError('C004', {
        reason: `no ${def.name} connector in workspace "${workspace}"; create one, or name another workspace (CONNECTOR_WORKSPACE) or a connector id`,
      });
    }
    const list = connectors.map((c) => `${String(c.id)}${typeof c.name === 'string' ? ` (${c.name})` : ''}`).join(', ');
    throw new RecipeError('C004', {
      reason: `${connectors.length} ${def.name} connectors in workspace "${workspace}": ${list}; give the step a connector id`,
    });
  }

  private async findDefinition(wanted: string, opts: CallOptions): Promise<DefinitionRow> {
    const target = wanted.toLowerCase();
    const match = (defs: DefinitionRow[]): DefinitionRow[] =>
      defs.filter((d) => d.id.toLowerCase() === target || d.name.toLowerCase() === target);
    // The name filter narrows the answer; an id does not match it, so fall back to the whole catalog.
    let defs = definitions(await this.getJson(definitionsPath(), { name: wanted }, 'definitions', opts));
    let hits = match(defs);
    if (hits.length === 0) {
      defs = definitions(await this.getJson(definitionsPath(), {}, 'definitions', opts));
      hits = match(defs);
    }
    if (hits.length === 1 && hits[0]) return hits[0];
    const names = defs.map((d) => `${d.name} (${d.id})`).join(', ') || 'none';
    const reason =
      hits.length === 0
        ? `no connector definition named "${wanted}"; the catalog has: ${names}`
        : `${hits.length} connector definitions match "${wanted}": ${hits.map((d) => `${d.name} (${d.id})`).join(', ')}; use the definition id`;
    throw new RecipeError('C004', { reason });
  }
}

function rows(body: unknown): Record<string, unknown>[] {
  const list = Array.isArray(body)
    ? body
    : body && typeof body === 'object'
      ? ((body as Record<string, unknown>).data ?? (body as Record<string, unknown>).connectors ?? [])
      : [];
  return Array.isArray(list)
    ? list.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object')
    : [];
}

function definitions(body: unknown): DefinitionRow[] {
  const list = body && typeof body === 'object' ? (body as Record<string, unknown>).definitions : undefined;
  if (!Array.isArray(list)) return [];
  const out: DefinitionRow[] = [];
  for (const d of list as Record<string, unknown>[]) {
    const id = d?.sourceDefinitionId ?? d?.id;
    if (typeof id === 'string' && typeof d.name === 'string') out.push({ id, name: d.name });
  }
  return out;
}
