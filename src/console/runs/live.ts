import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RunView } from '../run-api-types.js';
import type { RunFollower } from './run-view.js';

/** How often a followed run's journal is read for news. */
export const POLL_MS = 500;
/** Polls without news after which the view is sent anyway (the running bars grow). */
const QUIET_POLLS = 4;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

/** The open event streams, ended when the console stops (else closing would wait for them). */
export class LiveStreams {
  private readonly open = new Set<() => void>();

  add(stop: () => void): () => void {
    this.open.add(stop);
    return () => this.open.delete(stop);
  }

  stopAll(): void {
    for (const stop of [...this.open]) stop();
  }
}

/**
 * Follows a run over server-sent events: a `view` event with the whole run view now, then again whenever the
 * journal has news (polled every POLL_MS with after_seq, so a poll with nothing new costs two small queries),
 * and an `end` event once the run is no longer running, after which the stream closes (the page then stops
 * listening instead of reconnecting).
 */
export function followLive(
  request: FastifyRequest,
  reply: FastifyReply,
  follower: RunFollower,
  first: RunView,
  streams: LiveStreams,
): void {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'",
  });
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    clearInterval(keepalive);
    forget();
    res.end();
  };
  const forget = streams.add(stop);
  request.raw.on('close', stop);
  const send = (view: RunView): void => {
    res.write(`event: view\ndata: ${JSON.stringify(view)}\n\n`);
  };
  const ended = (view: RunView): boolean => {
    if (view.run.status === 'running') return false;
    res.write('event: end\ndata: {}\n\n');
    stop();
    return true;
  };
  send(first);
  if (ended(first)) return;
  let status = first.run.status;
  let quiet = 0;
  const poll = async (): Promise<void> => {
    if (stopped) return;
    try {
      const news = await follower.catchUp();
      const view = await follower.view();
      if (stopped || !view) return stop();
      // Nothing new for a while: send anyway, so the running steps' bars grow with the clock.
      if (news || view.run.status !== status || ++quiet >= QUIET_POLLS) {
        send(view);
        quiet = 0;
      }
      status = view.run.status;
      if (ended(view)) return;
    } catch {
      // The journal could not be read this time (a writer's checkpoint, a busy file): try again.
    }
    if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
  };
  timer = setTimeout(() => void poll(), POLL_MS);
}
