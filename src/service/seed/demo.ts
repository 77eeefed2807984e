import type { Kysely } from 'kysely';
import { actionContext, type ServiceContext } from '../core/service-context.js';
import { createConnector, listConnectors, toConnectorInstance } from '../store/connectors.js';
import type { CoreTables } from '../core/tables.js';

/** Contacts in the demo CRM by default (other entities scale from it). */
export const DEFAULT_SEED_SIZE = 1000;
/** The PRNG seed of the demo data: the same data on every machine. */
export const DEMO_SEED = 20240611;
/**
 * Name suffix of a demo connector while it is being filled. A process killed mid-seed (Ctrl-C on a first
 * run) leaves it behind, visibly marked; the next seed removes it and starts that type again, so a
 * half-filled connector never passes for the demo data.
 */
export const UNFINISHED_SEED = ' (seeding: unfinished)';

/**
 * Gives the workspace one connector per type that can seed demo data, filled with that data. A type
 * that already has a (finished) connector in the workspace is skipped, so seeding a reopened database
 * is a no-op.
 */
export async function seedDemo(
  svc: ServiceContext,
  target: { organizationId: string; workspaceId: string },
  opts: { size: number; baseUrl: string },
): Promise<string[]> {
  const db = svc.store.db as Kysely<CoreTables>;
  const created: string[] = [];
  for (const type of svc.types) {
    if (!type.seedDemo) continue;
    const existing = await listConnectors(db, target.organizationId, target.workspaceId, type.definition.id);
    const unfinished = existing.filter((c) => c.name.endsWith(UNFINISHED_SEED));
    for (const c of unfinished) await db.deleteFrom('connectors').where('id', '=', c.id).execute();
    if (existing.length > unfinished.length) continue;
    const name = `${type.definition.name} demo`;
    const row = await createConnector(
      db,
      {
        organizationId: target.organizationId,
        workspaceId: target.workspaceId,
        definitionId: type.definition.id,
        name: `${name}${UNFINISHED_SEED}`,
        credentials: {},
      },
      svc.now(),
    );
    try {
      await type.seedDemo(actionContext(svc, toConnectorInstance(row), opts.baseUrl), {
        size: opts.size,
        seed: DEMO_SEED,
      });
    } catch (err) {
      // A half-seeded connector would look like real data; remove it (its rows cascade).
      await db.deleteFrom('connectors').where('id', '=', row.id).execute();
      throw err;
    }
    await db.updateTable('connectors').set({ name }).where('id', '=', row.id).execute();
    created.push(row.id);
  }
  return created;
}
