import { CompiledQuery, type Kysely } from 'kysely';
import type { ConnectorInstance } from '../core/connector-type.js';
import type { CoreTables } from '../core/tables.js';
import { csDb } from './tables.js';

/** Outbox rows per INSERT (3 bound values each). */
const INSERT_CHUNK = 500;

/** One group of outbox rows: the changed ids of one entity of one connector, up to seq `upTo`. */
export interface OutboxBatch {
  readonly connectorId: string;
  readonly entity: string;
  readonly ids: ReadonlySet<string>;
  /** The largest seq read for this group; deleting up to it removes exactly what was read. */
  readonly upTo: number;
}

/**
 * Writes changed record ids to the outbox, inside the caller's (the write's) transaction: the change and
 * the note that the index must catch up commit together or not at all.
 */
export async function writeOutbox(
  trx: Kysely<CoreTables>,
  connectorId: string,
  entity: string,
  ids: readonly string[],
): Promise<void> {
  for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
    const part = ids.slice(i, i + INSERT_CHUNK);
    const values: string[] = [];
    for (const id of part) values.push(connectorId, entity, id);
    const tuples = new Array<string>(part.length).fill('(?, ?, ?)').join(', ');
    await trx.executeQuery(
      CompiledQuery.raw(`INSERT INTO cs_outbox (connector_id, entity, record_id) VALUES ${tuples}`, values),
    );
  }
}

/** Reads the oldest outbox rows (at most `limit`), grouped by connector and entity. */
export async function readOutbox(db: Kysely<CoreTables>, limit: number): Promise<OutboxBatch[]> {
  const rows = await csDb(db)
    .selectFrom('cs_outbox')
    .select(['seq', 'connector_id', 'entity', 'record_id'])
    .orderBy('seq')
    .limit(limit)
    .execute();
  const groups = new Map<string, { connectorId: string; entity: string; ids: Set<string>; upTo: number }>();
  for (const r of rows) {
    const key = `${r.connector_id}\u0000${r.entity}`;
    const g = groups.get(key) ?? { connectorId: r.connector_id, entity: r.entity, ids: new Set<string>(), upTo: 0 };
    g.ids.add(r.record_id);
    g.upTo = Math.max(g.upTo, r.seq);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/**
 * Removes the outbox rows of one group up to a seq (inside the transaction that indexed them). Rows are
 * numbered in commit order (one writer at a time), so nothing written after the read is removed.
 */
export async function deleteOutbox(trx: Kysely<CoreTables>, batch: OutboxBatch): Promise<void> {
  await csDb(trx)
    .deleteFrom('cs_outbox')
    .where('connector_id', '=', batch.connectorId)
    .where('entity', '=', batch.entity)
    .where('seq', '<=', batch.upTo)
    .execute();
}

/** The connectors an outbox batch names, as the indexer needs them (deleted ones are absent). */
export async function outboxConnectors(
  db: Kysely<CoreTables>,
  ids: readonly string[],
): Promise<Map<string, ConnectorInstance>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('connectors')
    .select(['id', 'organization_id', 'workspace_id', 'definition_id', 'name'])
    .where('id', 'in', ids)
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        organizationId: r.organization_id,
        workspaceId: r.workspace_id,
        definitionId: r.definition_id,
        name: r.name,
      },
    ]),
  );
}
