import type { FastifyPluginAsync } from 'fastify';
import type { JournalReader, RunCursor, RunStatus } from '../../journal/index.js';
import { ConsoleError } from '../errors.js';
import type { RequestsPage, RunsPage, RunView } from '../run-api-types.js';
import { decodeCursor, encodeCursor } from '../runs/cursor.js';
import type { JournalAccess } from '../runs/journal-source.js';
import { followLive, type LiveStreams } from '../runs/live.js';
import { requestView } from '../runs/requests.js';
import { listItem, RunFollower } from '../runs/run-view.js';

const STATUSES: readonly RunStatus[] = ['running', 'succeeded', 'failed', 'interrupted', 'cancelled'];
/** A run id as the journal accepts them (see run/run-id.ts). */
const RUN_ID = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$' } as const;
const TOKEN = { token: { type: 'string' } } as const;

/**
 * The runs API over the journal (read only): GET /api/runs (a page of the list), /api/runs/:id (a run's
 * page), /api/runs/:id/requests (its requests, paged by seq) and /api/runs/:id/live (server-sent events
 * while it runs). Without a journal (none yet, unreadable) each answers 503 journal_unavailable with why.
 */
export const runRoutes: FastifyPluginAsync<{ journal: JournalAccess; cwd: string; live: LiveStreams }> = async (
  app,
  { journal, cwd, live },
) => {
  const reader = async (): Promise<JournalReader> => {
    const got = await journal.get();
    if ('reason' in got) throw new ConsoleError('K503', { message: got.reason });
    return got.reader;
  };

  app.get<{ Querystring: { status?: RunStatus; recipe?: string; limit?: number; before?: string } }>(
    '/api/runs',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: STATUSES },
            recipe: { type: 'string', minLength: 1, maxLength: 1000 },
            limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
            before: { type: 'string', minLength: 1, maxLength: 2000 },
            ...TOKEN,
          },
          additionalProperties: false,
        },
      },
    },
    async (request): Promise<RunsPage> => {
      const q = request.query;
      const before = q.before === undefined ? undefined : decodeCursor(q.before);
      if (q.before !== undefined && before === undefined)
        throw new ConsoleError('K400', { message: 'before is not a cursor this console gave' });
      const limit = q.limit ?? 50;
      // One more than asked: whether there is a next page, without a count over the whole journal.
      const journalReader = await reader();
      const rows = await journalReader.listRuns({
        limit: limit + 1,
        ...(q.status !== undefined ? { status: q.status } : {}),
        ...(q.recipe !== undefined ? { recipe: q.recipe } : {}),
        ...(before !== undefined ? { before } : {}),
      });
      // A backend that ignored `before` would hand the first page again, and "Older" would never end:
      // only rows after the cursor in the listing's order are kept.
      const page = (before === undefined ? rows : rows.filter((r) => isAfter(r, before))).slice(0, limit);
      const last = page[page.length - 1];
      return {
        // The list's summaries do not carry the run's options: its origin is read per run (a page is ≤ 200).
        runs: await Promise.all(
          page.map(async (r) => listItem(r, (await journalReader.getRun(r.run_id))?.options.origin)),
        ),
        next: rows.length > limit && last ? encodeCursor(last) : null,
        source: journal.source.label,
      };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/runs/:id',
    { schema: { params: { type: 'object', properties: { id: RUN_ID } }, querystring: querystring({}) } },
    async (request): Promise<RunView> => {
      const follower = new RunFollower(await reader(), request.params.id, cwd);
      await follower.catchUp();
      const view = await follower.view();
      if (!view) throw new ConsoleError('K404', { message: `no run ${request.params.id} in ${journal.source.label}` });
      return view;
    },
  );

  app.get<{ Params: { id: string }; Querystring: { after_seq?: number; limit?: number; writes_only?: boolean } }>(
    '/api/runs/:id/requests',
    {
      schema: {
        params: { type: 'object', properties: { id: RUN_ID } },
        querystring: querystring({
          after_seq: { type: 'integer', minimum: 0, default: 0 },
          limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
          writes_only: { type: 'boolean', default: false },
        }),
      },
    },
    async (request): Promise<RequestsPage> => {
      const { after_seq = 0, limit = 100, writes_only = false } = request.query;
      const r = await reader();
      const rows = await r.listExchanges(request.params.id, { after_seq, limit: limit + 1, writes_only });
      if (rows.length === 0 && after_seq === 0 && !(await r.getRun(request.params.id)))
        throw new ConsoleError('K404', { message: `no run ${request.params.id} in ${journal.source.label}` });
      const page = rows.slice(0, limit);
      return {
        requests: page.map(requestView),
        next: rows.length > limit ? (page[page.length - 1]?.seq ?? null) : null,
      };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/runs/:id/live',
    { schema: { params: { type: 'object', properties: { id: RUN_ID } }, querystring: querystring({}) } },
    async (request, reply) => {
      const follower = new RunFollower(await reader(), request.params.id, cwd);
      await follower.catchUp();
      const first = await follower.view();
      if (!first) throw new ConsoleError('K404', { message: `no run ${request.params.id} in ${journal.source.label}` });
      followLive(request, reply, follower, first, live);
    },
  );
};

/** True when `r` comes after cursor `c` in the runs list (started earlier, or at the same time with a smaller id). */
function isAfter(r: RunCursor, c: RunCursor): boolean {
  const a = Date.parse(r.started_at);
  const b = Date.parse(c.started_at);
  return a < b || (a === b && r.run_id < c.run_id);
}

function querystring(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', properties: { ...properties, ...TOKEN }, additionalProperties: false };
}
