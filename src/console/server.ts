import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { bindRefusal } from '../listen/bind-policy.js';
import { installAccess } from './access.js';
import type { ConsoleActions } from './actions/console-actions.js';
import { defaultAssetsDir, loadAssets } from './assets.js';
import { newCsrfToken } from './csrf.js';
import { ConsoleError } from './errors.js';
import { consoleClientErrors, consoleFrameworkErrors } from './malformed.js';
import { RecipeCatalog } from './recipes.js';
import type { ConsoleTls } from './tls-files.js';
import { actionRoutes, type AuditLog } from './routes/actions.js';
import { fleetRoutes } from './routes/fleet.js';
import { infoRoutes } from './routes/info.js';
import { pageRoutes } from './routes/pages.js';
import { recipeRoutes } from './routes/recipes.js';
import { runRoutes } from './routes/runs.js';
import { JournalAccess, type JournalSource } from './runs/journal-source.js';
import { LiveStreams } from './runs/live.js';
import { serviceRoutes, type ServiceSource } from './routes/service.js';
import { submitRoutes } from './routes/submit.js';

export type { ServiceSource } from './routes/service.js';
export type { ConsoleActions } from './actions/console-actions.js';
export { fleetActions } from './actions/fleet-actions.js';
export { journalFileActions } from './actions/journal-actions.js';
export { journalFileSource, type JournalSource } from './runs/journal-source.js';
export { readTlsFiles, TlsFileError, type ConsoleTls } from './tls-files.js';

/** How to start the console. Only `cwd`, `recipeFolders` and `version` are required. */
export interface ConsoleOptions {
  /** Interface to listen on (default 127.0.0.1). Any other needs a token. */
  readonly host?: string;
  /** Port (default 0: any free port). */
  readonly port?: number;
  /** Required from every request when set; mandatory when the host is not a loopback name. */
  readonly token?: string;
  /** The working directory recipe refs are relative to. */
  readonly cwd: string;
  /** Folders whose YAML files the recipe pages may open. */
  readonly recipeFolders: readonly string[];
  /** Where the runs pages read runs; absent: the pages say there is no journal. */
  readonly journal?: JournalSource;
  /** The connector service the service page reads; absent: the page says there is none. */
  readonly service?: ServiceSource;
  readonly version: string;
  /** The built front end (default: dist/console/assets). */
  readonly assetsDir?: string;
  /** What the pages may do (cancel, redrive, schedules), on the journal or fleet they read; absent: nothing. */
  readonly actions?: ConsoleActions;
  /** Where each action's audit line goes (who, what, when); default: nowhere. */
  readonly audit?: AuditLog;
  /** Serve HTTPS with this certificate and key (tls-files.ts reads them); the token cookie is then Secure. */
  readonly tls?: ConsoleTls;
}

/** A listening console. */
export interface RunningConsole {
  /** http://host:port (https:// with tls) with no trailing slash (and no token). */
  readonly url: string;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

/** Refused before anything starts: a non-loopback host with no token. */
export class ConsoleUsageError extends Error {}

/** Builds the console's Fastify app (not listening; use inject in tests or startConsole). */
export async function buildConsoleApp(opts: ConsoleOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: 1024,
    // Malformed requests (a bad URL, a request line Node cannot parse) answer in the console's shape too.
    frameworkErrors: consoleFrameworkErrors,
    clientErrorHandler: consoleClientErrors,
    ...(opts.tls !== undefined ? { https: { cert: opts.tls.cert, key: opts.tls.key } } : {}),
  });
  const csrfToken = newCsrfToken();
  installAccess(app, opts.token, csrfToken, opts.tls !== undefined);
  app.addHook('onSend', async (_request, reply, payload) => {
    void reply.header(
      'content-security-policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    void reply.header('x-content-type-options', 'nosniff');
    void reply.header('referrer-policy', 'no-referrer');
    return payload;
  });
  app.setErrorHandler((err: FastifyError, _request, reply) => {
    let e: ConsoleError;
    if (err instanceof ConsoleError) e = err;
    else if (Array.isArray(err.validation))
      e = new ConsoleError('K400', { message: `invalid request: ${err.message}` });
    else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500)
      e = new ConsoleError('K400', { message: 'malformed request' });
    else e = new ConsoleError('K500');
    void reply.status(e.status).send(e.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const e = new ConsoleError('K404', { message: `no page ${request.url.split('?')[0]}` });
    void reply.status(404).send(e.toBody());
  });
  const recipes = new RecipeCatalog(opts.cwd, opts.recipeFolders);
  const journal = new JournalAccess(opts.journal ?? noJournal);
  const live = new LiveStreams();
  // Open event streams would keep close() waiting: end them first.
  app.addHook('preClose', async () => live.stopAll());
  const actions = opts.actions ?? noActions;
  app.addHook('onClose', async () => {
    await journal.close();
    await actions.close();
  });
  await app.register(infoRoutes, { version: opts.version, service: opts.service, journal, actions, csrfToken });
  await app.register(actionRoutes, { actions, audit: opts.audit ?? (() => {}), hasToken: opts.token !== undefined });
  await app.register(fleetRoutes, { actions });
  await app.register(recipeRoutes, { recipes });
  await app.register(runRoutes, { journal, cwd: opts.cwd, live });
  // POST /api/runs (submit to the fleet): an action like those above, beside the runs it adds to.
  await app.register(submitRoutes, {
    actions,
    audit: opts.audit ?? (() => {}),
    hasToken: opts.token !== undefined,
    recipes,
  });
  await app.register(serviceRoutes, { service: opts.service });
  await app.register(pageRoutes, { assets: loadAssets(opts.assetsDir ?? defaultAssetsDir()) });
  return app;
}

/** Starts the console; refuses what bindRefusal refuses (a non-loopback host without a token, a short token). */
export async function startConsole(opts: ConsoleOptions): Promise<RunningConsole> {
  const host = opts.host ?? '127.0.0.1';
  const refusal = bindRefusal(host, opts.token, 'the console', '--token or RECIPE_CONSOLE_TOKEN');
  if (refusal !== undefined) throw new ConsoleUsageError(refusal);
  const app = await buildConsoleApp(opts);
  await app.listen({ host, port: opts.port ?? 0 });
  const addr = app.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('console is not listening on a TCP port');
  const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `${opts.tls !== undefined ? 'https' : 'http'}://${shown}:${addr.port}`,
    app,
    async close() {
      await app.close();
      await opts.service?.close?.();
    },
  };
}

const NO_ACTIONS = 'this console was started without a journal to act on';
const noActions: ConsoleActions = {
  label: 'none',
  cancelUnavailable: NO_ACTIONS,
  redriveUnavailable: NO_ACTIONS,
  schedulesUnavailable: NO_ACTIONS,
  submitUnavailable: NO_ACTIONS,
  cancel: () => Promise.reject(new ConsoleError('K506', { message: NO_ACTIONS })),
  redrive: () => Promise.reject(new ConsoleError('K506', { message: NO_ACTIONS })),
  listSchedules: () => Promise.reject(new ConsoleError('K506', { message: NO_ACTIONS })),
  pauseSchedule: () => Promise.reject(new ConsoleError('K506', { message: NO_ACTIONS })),
  resumeSchedule: () => Promise.reject(new ConsoleError('K506', { message: NO_ACTIONS })),
  submit: () => Promise.reject(new ConsoleError('K506', { message: NO_ACTIONS })),
  close: () => Promise.resolve(),
};

const noJournal: JournalSource = {
  label: 'none',
  open: () => Promise.reject(new Error('this console was started without a run journal')),
};
