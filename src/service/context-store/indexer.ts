import type { Kysely } from 'kysely';
import type { ActionContext, ConnectorInstance, ConnectorType, ContextStoreSource } from '../core/connector-type.js';
import type { Store } from '../core/store.js';
import { catalogFor, type FieldCatalog } from './fields.js';
import { deleteDocs, upsertDocs } from './index-writer.js';
import { deleteOutbox, outboxConnectors, readOutbox, type OutboxBatch } from './outbox.js';
import {
  readStates,
  registerEntity,
  saveProgress,
  STATUSES,
  type ContextStoreStatus,
  type EntityState,
} from './readiness.js';
import type { CoreTables } from '../core/tables.js';
import { csDb } from './tables.js';

/** Timings of the indexer; tests shorten them or hold entities in a status. */
export interface IndexerOptions {
  /**
   * Records read and indexed per build step (default 5000; before Preview, steps stop at previewSize). Each
   * step is one transaction whose commit writes every index page it dirtied, so fewer, larger steps write
   * far fewer pages (bench/README.md, figure 11); a step of 5,000 holds the store's single connection 1–2 s at 100,000 on a loaded 2-core machine.
   */
  batchSize: number;
  /** Pause between build steps in ms (default 0). */
  batchDelayMs: number;
  /** Records per entity that make it searchable as Preview (default 1000). */
  previewSize: number;
  /** How often queued changes are applied while idle, in ms (default 50; the stated lag bound is 250 ms). */
  flushIntervalMs: number;
  /** Stop advancing entities past this status (tests); null to run freely. */
  hold: ContextStoreStatus | null;
}

export const DEFAULT_INDEXER_OPTIONS: IndexerOptions = {
  batchSize: 5000,
  batchDelayMs: 0,
  previewSize: 1000,
  flushIntervalMs: 50,
  hold: null,
};

const rank = (s: ContextStoreStatus) => STATUSES.indexOf(s);

/** Changed records re-read and written per transaction when queued changes are applied. */
const FLUSH_CHUNK = 500;
/** Outbox rows read per flush; more wait for the next tick (which comes at once). */
const OUTBOX_READ = 5000;

interface ConnectorRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  definition_id: string;
  name: string;
}

/** Keeps every connector's index up to date: initial builds in batches, then queued changes. */
export class Indexer {
  private readonly pending = new Map<string, { connector: ConnectorInstance; entity: string; ids: Set<string> }>();
  private readonly bySource = new Map<string, ContextStoreSource>();
  private turn = 0;

  constructor(
    private readonly store: Store,
    types: readonly ConnectorType[],
    public options: IndexerOptions,
  ) {
    for (const t of types) if (t.contextStore) this.bySource.set(t.definition.id, t.contextStore);
  }

  /** Queues changed records; the next flush re-reads them from the source (or drops them when gone). */
  enqueue(connector: ConnectorInstance, entity: string, ids: readonly string[]): void {
    if (!this.bySource.get(connector.definitionId)?.entities.includes(entity)) return;
    const key = `${connector.id}\u0000${entity}`;
    const entry = this.pending.get(key) ?? { connector, entity, ids: new Set<string>() };
    for (const id of ids) entry.ids.add(id);
    this.pending.set(key, entry);
  }

  private ctxFor(connector: ConnectorInstance): ActionContext {
    return { store: this.store, connector, now: () => new Date(), baseUrl: '', notifyChange: () => {} };
  }

  /** Registers (in Loading) the entities of connectors not seen yet; all connectors when `all`. */
  async discover(all: boolean): Promise<void> {
    const defs = [...this.bySource.keys()];
    if (defs.length === 0) return;
    let q = csDb(this.store.db)
      .selectFrom('connectors')
      .select(['id', 'organization_id', 'workspace_id', 'definition_id', 'name'])
      .where('definition_id', 'in', defs);
    if (!all)
      q = q.where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('cs_state').select('entity').whereRef('cs_state.connector_id', '=', 'connectors.id'))),
      );
    const rows = (await q.execute()) as ConnectorRow[];
    const now = new Date().toISOString();
    for (const r of rows) {
      const source = this.bySource.get(r.definition_id) as ContextStoreSource;
      for (const entity of source.entities)
        await registerEntity(this.store.db, r.id, entity, catalogFor(source, entity), now);
    }
  }

  /**
   * Runs one build step (one batch) for the next unfinished entity, round robin, so that a tick stays
   * short and queued writes are applied between batches; true when work was done. Entities not yet
   * searchable go first: a step past Preview (up to batchSize records) would otherwise delay every other
   * entity's Preview by its length.
   */
  async buildStep(): Promise<boolean> {
    const unfinished = (await csDb(this.store.db)
      .selectFrom('cs_state')
      .select(['connector_id', 'entity', 'status'])
      .where('status', '<>', 'Ready')
      .orderBy('connector_id')
      .orderBy('entity')
      .execute()) as { connector_id: string; entity: string; status: string }[];
    const early = unfinished.filter((s) => s.status !== 'Preview');
    const late = unfinished.filter((s) => s.status === 'Preview');
    for (const group of [early, late]) {
      for (let tried = 0; tried < group.length; tried++) {
        const next = group[this.turn++ % group.length] as { connector_id: string; entity: string };
        if (await this.buildNamed(next.connector_id, next.entity)) return true;
      }
    }
    return false;
  }

  /** One build step for one entity of one connector; false when there is nothing to do (gone, held). */
  private async buildNamed(connectorId: string, entity: string): Promise<boolean> {
    const row = (await csDb(this.store.db)
      .selectFrom('connectors')
      .select(['id', 'organization_id', 'workspace_id', 'definition_id', 'name'])
      .where('id', '=', connectorId)
      .executeTakeFirst()) as ConnectorRow | undefined;
    const source = row && this.bySource.get(row.definition_id);
    const state = row && (await readStates(this.store.db, row.id)).find((s) => s.entity === entity);
    if (!row || !source || !state) return false;
    const connector: ConnectorInstance = {
      id: row.id,
      organizationId: row.organization_id,
      workspaceId: row.workspace_id,
      definitionId: row.definition_id,
      name: row.name,
    };
    return this.buildEntityStep(connector, source, state);
  }

  private async buildEntityStep(
    connector: ConnectorInstance,
    source: ContextStoreSource,
    state: EntityState,
  ): Promise<boolean> {
    const { hold, batchSize, previewSize } = this.options;
    if (hold && rank(state.status) >= rank(hold)) return false;
    // Before Preview, steps stop at the preview size, so an entity turns searchable as early as a small batch
    // would make it; held at Building Preview, one step short of it. After that, whole batches.
    const toPreview = previewSize - state.scanned - (hold === 'Building Preview' ? 1 : 0);
    const limit = toPreview > 0 ? Math.min(batchSize, toPreview) : hold === 'Building Preview' ? 1 : batchSize;
    const ctx = this.ctxFor(connector);
    const page = await source.scan(ctx, state.entity, state.scanAfter, limit);
    const scanned = state.scanned + page.docs.length;
    const status: ContextStoreStatus =
      page.next === null ? 'Ready' : scanned >= previewSize ? 'Preview' : 'Building Preview';
    if (hold && rank(status) > rank(hold)) return false;
    await this.store.transaction(async (trx) => {
      await upsertDocs(trx, connector.id, state.entity, state.catalog, page.docs);
      await saveProgress(
        trx,
        { connectorId: connector.id, entity: state.entity, status, scanAfter: page.next, scanned },
        new Date().toISOString(),
      );
    });
    return true;
  }

  /** True when this connector type's context store source indexes the entity. */
  indexes(connector: ConnectorInstance, entity: string): boolean {
    return this.bySource.get(connector.definitionId)?.entities.includes(entity) ?? false;
  }

  /**
   * Applies queued changes, those announced in memory and those in the outbox (the durable record of
   * them, written with each change): re-read each changed record; records the source no longer has leave
   * the index. True when outbox rows were applied (more may wait).
   */
  async flush(): Promise<boolean> {
    const entries = new Map([...this.pending].map(([k, e]) => [k, { ...e, outbox: [] as OutboxBatch[] }]));
    this.pending.clear();
    const outbox = await readOutbox(this.store.db, OUTBOX_READ);
    const connectors = await outboxConnectors(this.store.db, [...new Set(outbox.map((b) => b.connectorId))]);
    let applied = 0;
    for (const batch of outbox) {
      const key = `${batch.connectorId}\u0000${batch.entity}`;
      const connector = entries.get(key)?.connector ?? connectors.get(batch.connectorId);
      // A connector deleted meanwhile took its outbox rows with it (ON DELETE CASCADE).
      if (!connector) continue;
      const entry = entries.get(key) ?? { connector, entity: batch.entity, ids: new Set<string>(), outbox: [] };
      for (const id of batch.ids) entry.ids.add(id);
      entry.outbox.push(batch);
      entries.set(key, entry);
      applied += 1;
    }
    let failure: unknown = null;
    for (const entry of entries.values()) {
      // One failing entity (e.g. its connector was deleted meanwhile) must not drop the others' changes;
      // its outbox rows stay for the next flush.
      try {
        await this.flushEntry(entry);
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure) throw failure;
    return applied > 0;
  }

  private async flushEntry({
    connector,
    entity,
    ids,
    outbox,
  }: {
    connector: ConnectorInstance;
    entity: string;
    ids: Set<string>;
    outbox: readonly OutboxBatch[];
  }): Promise<void> {
    const source = this.bySource.get(connector.definitionId);
    const catalogRow = await csDb(this.store.db)
      .selectFrom('cs_state')
      .select(['fields', 'status'])
      .where('connector_id', '=', connector.id)
      .where('entity', '=', entity)
      .executeTakeFirst();
    const done = async (trx: Kysely<CoreTables>) => {
      for (const batch of outbox) await deleteOutbox(trx, batch);
    };
    // Not indexed here, not registered or not started: the initial build will read these records anyway,
    // so every outbox row of the entity goes at once (a bulk load leaves one per record; applying them batch
    // by batch while the build runs would index each record twice). No build step runs during a flush.
    if (!source || !catalogRow || catalogRow.status === 'Loading') {
      if (outbox.length > 0)
        await csDb(this.store.db)
          .deleteFrom('cs_outbox')
          .where('connector_id', '=', connector.id)
          .where('entity', '=', entity)
          .execute();
      return;
    }
    const catalog = JSON.parse(catalogRow.fields) as FieldCatalog;
    const all = [...ids];
    // Chunks keep each read and transaction small (a bulk write may notify many thousands of ids); the
    // outbox rows go with the last chunk, so a crash before it leaves them to be applied again.
    for (let i = 0; i < all.length; i += FLUSH_CHUNK) {
      const list = all.slice(i, i + FLUSH_CHUNK);
      const docs = await source.read(this.ctxFor(connector), entity, list);
      const found = new Set(docs.map((d) => d.id));
      await this.store.transaction(async (trx) => {
        await upsertDocs(trx, connector.id, entity, catalog, docs);
        await deleteDocs(
          trx,
          connector.id,
          entity,
          list.filter((id) => !found.has(id)),
        );
        if (i + FLUSH_CHUNK >= all.length) await done(trx);
      });
    }
  }
}
