import { RecipeError } from '../errors/index.js';
import type { CallOptions } from './call-options.js';
import { connectorsPath, definitionsPath } from './routes.js';

/** A connector named by id, or by workspace (defaulted) and definition (name or id). */
export type ConnectorLookup = { readonly id: string } | { readonly workspace?: string; readonly definition: string };

type GetJson = (path: string, query: Record<string, string>, action: string, opts: CallOptions) => Promise<unknown>;

interface DefinitionRow {
  /** The catalog's sourceDefinitionId: the contract lets it be null, and does not promise a UUID. */
  id: string | null;
  name: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
    const answer = await this.listConnectors(workspace, def, opts);
    // The contract does not promise the list is filtered by definition_id, so every row is matched here.
    const all = rows(answer.value);
    const connectors = all.filter((c) => rowMatches(c, def, definition, answer.filtered));
    if (connectors.length === 1 && typeof connectors[0]?.id === 'string') return connectors[0].id;
    if (connectors.length === 0) {
      const others = all.length > 0 ? `; the workspace has: ${all.map(describeRow).join(', ')}` : '';
      throw new RecipeError('C004', {
        reason: `no ${def.name} connector in workspace "${workspace}"; create one, or name another workspace (CONNECTOR_WORKSPACE) or a connector id${others}`,
      });
    }
    const list = connectors.map(describeRow).join(', ');
    throw new RecipeError('C004', {
      reason: `${connectors.length} ${def.name} connectors in workspace "${workspace}": ${list}; give the step a connector id`,
    });
  }

  /**
   * GET the workspace's connectors, narrowed by definition_id when the catalog gave one. The contract types
   * that query as a UUID, so a service may refuse another id (400/422): then the unfiltered list is asked.
   */
  private async listConnectors(
    workspace: string,
    def: DefinitionRow,
    opts: CallOptions,
  ): Promise<{ value: unknown; filtered: boolean }> {
    const ask = async (query: Record<string, string>): Promise<unknown> => {
      try {
        return await this.getJson(connectorsPath(), query, 'lookup', opts);
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
    };
    if (def.id === null) return { value: await ask({ workspace_name: workspace }), filtered: false };
    try {
      return { value: await ask({ workspace_name: workspace, definition_id: def.id }), filtered: true };
    } catch (err) {
      const refused =
        err instanceof RecipeError &&
        ((err.code === 'C005' && err.params.status === 422) || err.code === 'C004') &&
        !UUID.test(def.id);
      if (!refused) throw err;
      return { value: await ask({ workspace_name: workspace }), filtered: false };
    }
  }

  private async findDefinition(wanted: string, opts: CallOptions): Promise<DefinitionRow> {
    const target = wanted.toLowerCase();
    const match = (defs: DefinitionRow[]): DefinitionRow[] =>
      defs.filter((d) => d.id?.toLowerCase() === target || d.name.toLowerCase() === target);
    // The name filter narrows the answer; an id does not match it, so fall back to the whole catalog.
    let defs = definitions(await this.getJson(definitionsPath(), { name: wanted }, 'definitions', opts));
    let hits = match(defs);
    if (hits.length === 0) {
      defs = definitions(await this.getJson(definitionsPath(), {}, 'definitions', opts));
      hits = match(defs);
    }
    if (hits.length === 1 && hits[0]) return hits[0];
    const names = defs.map(describeDefinition).join(', ') || 'none';
    const reason =
      hits.length === 0
        ? `no connector definition named "${wanted}"; the catalog has: ${names}`
        : `${hits.length} connector definitions match "${wanted}": ${hits.map(describeDefinition).join(', ')}; use the definition id`;
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
    // The contract's ConnectorDefinitionSummarized requires only name; sourceDefinitionId may be null.
    const id = d?.sourceDefinitionId ?? d?.id;
    if (typeof d?.name === 'string') out.push({ id: typeof id === 'string' && id !== '' ? id : null, name: d.name });
  }
  return out;
}

function describeDefinition(d: DefinitionRow): string {
  return d.id === null ? d.name : `${d.name} (${d.id})`;
}

function templateOf(row: Record<string, unknown>): Record<string, unknown> {
  const t = row.summarized_source_template;
  return t !== null && typeof t === 'object' ? (t as Record<string, unknown>) : {};
}

/** The row's definition id: our service's own field, else the contract's summarized_source_template.actor_definition_id. */
function rowDefinitionId(row: Record<string, unknown>): string | undefined {
  const id = row.definition_id ?? row.definitionId ?? row.source_definition_id ?? templateOf(row).actor_definition_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The names the contract gives a row's definition: the template's display name and its connector slug. */
function rowDefinitionNames(row: Record<string, unknown>): string[] {
  const t = templateOf(row);
  return [t.name, t.connector_name, row.definition_name]
    .filter((n): n is string => typeof n === 'string' && n !== '')
    .map((n) => n.toLowerCase());
}

/**
 * Whether a connectors row is of the definition: by id when the row and the catalog both give one that can
 * be compared (the same id, or two UUIDs), else by the definition's name; a row saying neither is trusted
 * only when the service was asked to filter by the definition (what the lookup did before the contract).
 */
function rowMatches(row: Record<string, unknown>, def: DefinitionRow, wanted: string, filtered: boolean): boolean {
  const id = rowDefinitionId(row);
  if (id !== undefined && def.id !== null) {
    if (id.toLowerCase() === def.id.toLowerCase()) return true;
    // Two UUIDs that differ are two definitions; a non-UUID catalog id cannot be told apart by id alone.
    if (UUID.test(def.id)) return false;
  }
  const names = rowDefinitionNames(row);
  if (names.length > 0) return names.includes(def.name.toLowerCase()) || names.includes(wanted.toLowerCase());
  return id === undefined && filtered;
}

function describeRow(row: Record<string, unknown>): string {
  const t = templateOf(row);
  const kind = typeof t.name === 'string' ? t.name : typeof row.definition_name === 'string' ? row.definition_name : '';
  const name = typeof row.name === 'string' ? row.name : '';
  const detail = [name, kind !== '' && kind !== name ? `a ${kind} connector` : ''].filter((x) => x !== '').join(', ');
  return `${String(row.id)}${detail !== '' ? ` (${detail})` : ''}`;
}
