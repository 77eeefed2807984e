import type { Dispatcher } from 'undici';
import { Pool } from './undici.js';

/** One HTTP request as the client builds it. */
export interface HttpRequest {
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute URL of the request. */
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body?: string | undefined;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

/** A complete answer: status, headers (lower-case names) and the whole body. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string | undefined>;
  readonly body: Buffer;
}

/** Why an exchange produced no answer. `sent: false` only when no byte can have reached the server. */
export class TransportError extends Error {
  constructor(
    readonly kind: 'connect' | 'reset' | 'timeout' | 'aborted',
    readonly sent: boolean,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'TransportError';
  }
}

/** Error codes that mean the connection was never established, so the request never left. */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Resolves once the transport has written a request sent just before (in the same turn of the event loop),
 * so that it is on its way before the caller holds the thread (a streaming paginate's page of items).
 * undici writes to a reused keep-alive connection from a setImmediate callback, queued when the request
 * reaches it, after the microtasks of the caller's own path; one setImmediate queued by the caller runs
 * before that one. The second, queued from the first, runs in the next turn, after undici's.
 */
export function requestWritten(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * Exactly one HTTP exchange per call over keep-alive connection pools (one per origin). No retries here:
 * the retry policy lives in the client, around this.
 */
export class HttpTransport {
  private readonly pools = new Map<string, Pool>();
  /**
   * A URL's origin and request target, read once per URL object: the client reuses one URL per connector API
   * path, and each read of a URL's getters builds new strings (three per request).
   */
  private readonly targets = new WeakMap<URL, { readonly origin: string; readonly path: string }>();

  /**
   * With `dispatcher`, every exchange goes through it instead of the transport's own pools (a test runner's
   * mock or cassette agent); the caller owns it, so close() leaves it open.
   */
  constructor(private readonly dispatcher?: Dispatcher) {}

  send(req: HttpRequest): Promise<HttpResponse> {
    const { origin, path } = this.targetOf(req.url);
    const target: Dispatcher = this.dispatcher ?? this.poolFor(origin);
    return new Promise((resolve, reject) => {
      const exchange = new Exchange(req, resolve, reject);
      target.dispatch(
        {
          ...(this.dispatcher ? { origin } : {}),
          method: req.method,
          path,
          headers: req.headers,
          body: req.body ?? null,
        },
        exchange,
      );
    });
  }

  private targetOf(url: URL): { readonly origin: string; readonly path: string } {
    let known = this.targets.get(url);
    if (!known) {
      known = { origin: url.origin, path: url.pathname + url.search };
      this.targets.set(url, known);
    }
    return known;
  }

  /** Closes every pooled connection; the transport can still be used afterwards (pools reopen). */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.close().catch(() => undefined)));
  }

  private poolFor(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: 16, keepAliveTimeout: 10_000 });
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

/**
 * One exchange, as undici's dispatch handler: the answer's status, headers and body chunks, kept until it
 * ends. Driving undici's dispatcher directly instead of its `request()` API spares each exchange an
 * AbortController, a readable stream for the body and a copy of it (~30 µs of CPU per request in the
 * fan-out's profile, bench/README.md). The exchange's time limit is one plain timer for the whole exchange,
 * headers and body; the caller's signal and the timer both stop it: at once if the request still waits for
 * a connection (undici then never sends it), or by aborting it on its connection.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  /** Why the exchange was stopped, once it was (the timer or the caller's signal). */
  private stopped: TransportError | null = null;
  private settled = false;
  private status = 0;
  private headers: Record<string, string | undefined> = {};
  private readonly chunks: Buffer[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = (): void => this.stop(new TransportError('aborted', true, 'cancelled'));

  constructor(
    private readonly req: HttpRequest,
    private readonly resolve: (res: HttpResponse) => void,
    private readonly reject: (err: TransportError) => void,
  ) {
    this.timer = setTimeout(
      () => this.stop(new TransportError('timeout', true, `no answer within ${req.timeoutMs} ms`)),
      req.timeoutMs,
    );
    const outer = req.signal;
    if (outer?.aborted) this.onAbort();
    else outer?.addEventListener('abort', this.onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.stopped) controller.abort(this.stopped);
  }

  onResponseStart(
    _c: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return; // an informational answer: the final one follows
    this.status = statusCode;
    const out: Record<string, string | undefined> = {};
    for (const name in headers) {
      const value = headers[name];
      out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    this.headers = out;
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    const { chunks } = this;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    if (this.settle()) this.resolve({ status: this.status, headers: this.headers, body });
  }

  onResponseError(_c: Dispatcher.DispatchController | null, err: Error): void {
    const why = this.req.signal?.aborted
      ? new TransportError('aborted', true, 'cancelled')
      : (this.stopped ?? classify(err));
    if (this.settle()) this.reject(why);
  }

  /** Stops the exchange for `why`: the caller hears it now, whether or not the request has left yet. */
  private stop(why: TransportError): void {
    if (this.settled) return;
    this.stopped = why;
    this.controller?.abort(why);
    if (this.settle()) this.reject(why);
  }

  /** True the first time: the exchange ends once, and its timer and listener go with it. */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    this.req.signal?.removeEventListener('abort', this.onAbort);
    return true;
  }
}

function classify(err: unknown): TransportError {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  const causeCode = e.cause?.code ?? '';
  const reason = [code, e.message].filter(Boolean).join(' ') || 'connection failed';
  if (CONNECT_CODES.has(code) || CONNECT_CODES.has(causeCode)) return new TransportError('connect', false, reason);
  return new TransportError('reset', true, reason);
}
