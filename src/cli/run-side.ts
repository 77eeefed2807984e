import type { ConnectorCatalog } from '../catalog/index.js';
import { ENV, type ConnectionConfig } from '../client/index.js';
import type { JournalStore } from '../journal/index.js';
import type { RunningService } from '../service/start.js';
import { openRunJournal } from './run/run-journal.js';
import { embeddedAsked, runTarget, targetCatalog } from './run/run-target.js';
import { startEmbedded } from './run/run-embedded.js';
import type { RunFlags } from './run/run-types.js';

/**
 * What a long-running command that starts runs (`recipe triggers`, `recipe mcp`) runs them with, decided once at
 * start-up as `recipe run` decides it per run: the configured service (flags, CONNECTOR_*, .env) or the embedded
 * one, the catalog recipes are checked against, and the run journal (runs show in `recipe runs` and the console).
 */
export interface RunSide {
  readonly connection: ConnectionConfig;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly catalog?: ConnectorCatalog;
  readonly journal: JournalStore;
  /** Lines for stderr: the .env read, the embedded service used. */
  readonly notes: readonly string[];
  close(): Promise<void>;
}

/** The flags both commands take for it: a subset of `recipe run`'s, with the same meaning. */
export type RunSideFlags = Pick<RunFlags, 'baseUrl' | 'organization' | 'fixtures' | 'db' | 'envFile'> & {
  journal?: string;
};

/** Opens the run side; throws a RecipeError (C001 bad configuration, J007 journal) before anything listens. */
export async function openRunSide(flags: RunSideFlags): Promise<RunSide> {
  const target = runTarget(flags);
  const notes = [...target.notes];
  const catalog = await targetCatalog(target, (m) => notes.push(m));
  let service: RunningService | undefined;
  let connection: ConnectionConfig;
  let env = target.env;
  if (target.config === undefined) {
    const embedded = await startEmbedded(process.cwd(), {
      ...(flags.db !== undefined ? { db: flags.db } : {}),
      ...(flags.fixtures !== undefined ? { fixtures: flags.fixtures } : {}),
    });
    service = embedded.service;
    notes.push(
      `${embeddedAsked(flags) ? 'runs use' : 'no CONNECTOR_API_URL: runs use'} the embedded service at ${service.url} (${embedded.what})`,
    );
    connection = { baseUrl: service.url, ...service.credentials, workspace: target.workspace };
    env = { ...env, [ENV.organization]: undefined };
  } else {
    connection = target.config;
  }
  let journal: JournalStore | undefined;
  try {
    journal = await openRunJournal({ ...(flags.journal !== undefined ? { journal: flags.journal } : {}) });
  } catch (err) {
    await service?.close();
    throw err;
  }
  if (!journal) throw new Error('unreachable: the journal is always opened here');
  const opened = journal;
  return {
    connection,
    env,
    ...(catalog ? { catalog } : {}),
    journal: opened,
    notes,
    async close() {
      await opened.close();
      await service?.close();
    },
  };
}
