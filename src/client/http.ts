import type { Dispatcher } from 'undici';
import { Pool } from './undici.js';

/** One HTTP request as the client builds it. */
export interface HttpRequest {
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute URL of the request. */
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
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
 * Exactly one HTTP exchange per call over keep-alive connection pools (one per origin). No retries here:
 * the retry policy lives in the client, around this.
 */
export class HttpTransport {
  private readonly pools = new Map<string, Pool>();

  /**
   * With `dispatcher`, every exchange goes through it instead of the transport's own pools (a test runner's
   * mock or cassette agent); the caller owns it, so close() leaves it open.
   */
  constructor(private readonly dispatcher?: Dispatcher) {}

  async send(req: HttpRequest): Promise<HttpResponse> {
    const target: Dispatcher = this.dispatcher ?? this.poolFor(req.url.origin);
    // One controller and one plain timer per exchange, cleared when it ends: AbortSignal.timeout plus
    // AbortSignal.any cost several times more per request (weak-ref bookkeeping, a DOMException per timeout).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, req.timeoutMs);
    const outer = req.signal;
    const onAbort = (): void => controller.abort();
    if (outer) {
      if (outer.aborted) controller.abort();
      else outer.addEventListener('abort', onAbort, { once: true });
    }
    try {
      const res = await target.request({
        ...(this.dispatcher ? { origin: req.url.origin } : {}),
        method: req.method,
        path: req.url.pathname + req.url.search,
        headers: req.headers,
        body: req.body ?? null,
        signal: controller.signal,
      });
      const body = Buffer.from(await res.body.arrayBuffer());
      const headers: Record<string, string | undefined> = {};
      for (const name in res.headers) {
        const value = res.headers[name];
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: res.statusCode, headers, body };
    } catch (err) {
      if (outer?.aborted) throw new TransportError('aborted', true, 'cancelled');
      if (timedOut) throw new TransportError('timeout', true, `no answer within ${req.timeoutMs} ms`);
      throw classify(err);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    }
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

function classify(err: unknown): TransportError {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  const causeCode = e.cause?.code ?? '';
  const reason = [code, e.message].filter(Boolean).join(' ') || 'connection failed';
  if (CONNECT_CODES.has(code) || CONNECT_CODES.has(causeCode)) return new TransportError('connect', false, reason);
  return new TransportError('reset', true, reason);
}
