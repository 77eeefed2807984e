import type { Kysely } from 'kysely';
import { countDocs, isSearchable, readStates, type ContextStoreStatus } from './readiness.js';
import type { CoreTables } from '../core/tables.js';

/** One entity's readiness as inspect reports it (configured_cache_entities[]). */
export interface EntityReadiness {
  entity: string;
  status: ContextStoreStatus;
  ready_for_search: boolean;
  entity_count: number;
  updated_at: string | null;
}

/**
 * The readiness of every context-store entity of a connector, in the order given. Entities the indexer has
 * not registered yet (a connector created a moment ago) read as Loading with nothing indexed.
 */
export async function readContextStoreReadiness(
  db: Kysely<CoreTables>,
  connectorId: string,
  entities: readonly string[],
): Promise<EntityReadiness[]> {
  const states = new Map((await readStates(db, connectorId)).map((s) => [s.entity, s]));
  const out: EntityReadiness[] = [];
  for (const entity of entities) {
    const s = states.get(entity);
    const status = s?.status ?? 'Loading';
    out.push({
      entity,
      status,
      ready_for_search: isSearchable(status),
      entity_count: s ? await countDocs(db, connectorId, entity) : 0,
      updated_at: s?.updatedAt ?? null,
    });
  }
  return out;
}
