import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { bindRefusal } from '../listen/bind-policy.js';
import type { Deliveries } from './deliver.js';
import { TriggerHttpError } from './errors.js';
import { RateLimiter } from './rate-limit.js';
import type { Trigger } from './trigger-file.js';

/** How to start the triggers server. */
export interface TriggerServerOptions {
  readonly triggers: readonly Trigger[];
  readonly deliveries: Deliveries;
  /** Default 127.0.0.1; any other interface needs a token. */
  readonly host?: string;
  readonly port?: number;
  /** Required from every request when set (Authorization: Bearer, or ?token= for senders that cannot set headers). */
  readonly token?: string;
}

/** A listening triggers server. */
export interface RunningTriggers {
  readonly url: string;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

/** The longest ?wait: a sender's request should not be held open longer. */
const MAX_WAIT_MS = 300_000;

/** Refused before anything starts: a non-loopback host without a token. */
export class TriggerUsageError extends Error {}

/** Builds the app: POST /hooks/:name, GET /healthz; every error in the documented shape. */
export function buildTriggerApp(opts: TriggerServerOptions): FastifyInstance {
  const byName = new Map(opts.triggers.map((t) => [t.name, t]));
  const maxBody = Math.max(1024, ...opts.triggers.map((t) => t.maxBody));
  const limiter = new RateLimiter();
  const expected = opts.token === undefined ? undefined : Buffer.from(opts.token, 'utf8');
  // Fastify's own limit answers 413 before the body is read; each trigger's own limit is checked after.
  const app = Fastify({ logger: false, bodyLimit: maxBody + 1 });
  // The signature is over the raw bytes: every body is kept as a Buffer and parsed after verification.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.addHook('onRequest', async (request) => {
    if (!expected) return;
    const h = request.headers.authorization;
    const q = (request.query as Record<string, unknown> | undefined)?.token;
    const given = typeof h === 'string' && h.startsWith('Bearer ') ? h.slice(7) : typeof q === 'string' ? q : '';
    const g = Buffer.from(given, 'utf8');
    if (g.length !== expected.length || !timingSafeEqual(g, expected)) throw new TriggerHttpError('G018');
  });
  app.setErrorHandler((err: FastifyError, _request, reply) => {
    let e: TriggerHttpError;
    if (err instanceof TriggerHttpError) e = err;
    else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') e = new TriggerHttpError('G016', { limit: maxBody });
    else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500)
      e = new TriggerHttpError('G020', { message: err.message });
    else e = new TriggerHttpError('G022');
    void reply.status(e.status).send(e.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const e = new TriggerHttpError('G021', { method: request.method, path: request.url.split('?')[0] });
    void reply.status(e.status).send(e.toBody());
  });
  app.get('/healthz', async () => ({ ok: true, triggers: [...byName.keys()] }));
  app.post<{ Params: { name: string }; Querystring: Record<string, unknown> }>(
    '/hooks/:name',
    async (request, reply) => {
      const trigger = byName.get(request.params.name);
      if (!trigger)
        throw new TriggerHttpError('G001', {
          name: request.params.name,
          known: [...byName.keys()].join(', ') || 'none',
        });
      const waitMs = parseWait(request.query.wait);
      if (!limiter.take(trigger.name, trigger.ratePerMinute))
        throw new TriggerHttpError('G017', { name: trigger.name, limit: trigger.ratePerMinute });
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const accepted = await opts.deliveries.accept(trigger, raw, request.headers);
      const ended = await opts.deliveries.result(trigger, accepted.runId, waitMs);
      const answer = {
        trigger: trigger.name,
        delivery_id: accepted.deliveryId,
        run_id: accepted.runId,
        duplicate: accepted.duplicate,
      };
      if (!ended)
        return reply.status(202).send({ ...answer, status: trigger.runsOn === 'fleet' ? 'queued' : 'running' });
      return reply.status(200).send({ ...answer, ...ended });
    },
  );
  return app;
}

/** Starts the server; refuses what bindRefusal refuses (a non-loopback host without a token, a short token). */
export async function startTriggerServer(opts: TriggerServerOptions): Promise<RunningTriggers> {
  const host = opts.host ?? '127.0.0.1';
  const refusal = bindRefusal(host, opts.token, 'the triggers', '--token or RECIPE_TRIGGERS_TOKEN');
  if (refusal !== undefined) throw new TriggerUsageError(refusal);
  const app = buildTriggerApp(opts);
  await app.listen({ host, port: opts.port ?? 0 });
  const addr = app.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('not listening on a TCP port');
  const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shown}:${addr.port}`,
    app,
    async close() {
      await app.close();
      await opts.deliveries.drain();
    },
  };
}

/** ?wait=30s | 2m | 500ms | 10 (seconds); absent: 0 (answer 202 at once). */
function parseWait(wait: unknown): number {
  if (wait === undefined) return 0;
  const m = typeof wait === 'string' ? /^(\d{1,6})(ms|s|m)?$/.exec(wait) : null;
  if (!m) throw new TriggerHttpError('G023', { wait: String(wait).slice(0, 40) });
  const n = Number(m[1]);
  const ms = m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
  if (ms > MAX_WAIT_MS) throw new TriggerHttpError('G023', { wait });
  return ms;
}
