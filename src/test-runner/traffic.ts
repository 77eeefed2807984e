import { isWriteAction } from '../client/index.js';
import type { CassettePlayer, CassetteRecorder } from './cassette.js';
import { classify } from './exchange.js';
import { bodyOf, type HttpRequestSeen } from './http-mocks.js';
import type { Answer, OutgoingRequest, TrafficPolicy } from './interceptor.js';
import type { MockSet } from './mock-rules.js';
import type { TokenCache } from './token-cache.js';

/**
 * A write the service (or a mock) accepted, as the case's `writes` expectation sees it: a connector call, or
 * an http request (any method but GET and HEAD) to a URL outside the connector API that got a 2xx answer.
 */
export type WriteRecord = ConnectorWrite | HttpWrite;

export interface ConnectorWrite {
  readonly entity: string;
  readonly action: string;
  readonly params: unknown;
}

export interface HttpWrite {
  readonly http: {
    readonly method: string;
    readonly url: string;
    /** The headers the step set (those the client adds to every request left out). */
    readonly headers: Readonly<Record<string, string>>;
    /** JSON parsed when the request said JSON, else the text; null without a body. */
    readonly body: unknown;
  };
}

/** Headers the client adds to every request: noise in a write the test asserts. */
const CLIENT_HEADERS = new Set([
  'user-agent',
  'idempotency-key',
  'content-length',
  'host',
  'traceparent',
  'tracestate',
]);

/** Where one case's requests go besides the service: shared token answers, its mocks, its cassette. */
export interface CaseTrafficOptions {
  /** The connector service's origin: requests to any other origin are outside ones (http steps). */
  readonly serviceOrigin: string;
  readonly tokens?: TokenCache;
  /** The template the case's data comes from (tokens are per template). */
  readonly data?: string;
  readonly mocks?: MockSet;
  readonly player?: CassettePlayer;
  readonly recorder?: CassetteRecorder;
  readonly now: () => number;
}

/**
 * The traffic policy of one case: answers from the cassette, then the mocks, then cached tokens; lets the
 * rest through (to the service, or outside where the run's guard let it); and keeps the writes that were
 * accepted, in the order they were sent.
 */
export class CaseTraffic implements TrafficPolicy {
  private sent = 0;
  private readonly order = new WeakMap<OutgoingRequest, number>();
  private readonly accepted: { seq: number; write: WriteRecord }[] = [];

  constructor(private readonly options: CaseTrafficOptions) {}

  async answer(req: OutgoingRequest): Promise<Answer | undefined> {
    this.order.set(req, this.sent++);
    const { player, mocks, tokens } = this.options;
    const outside = this.isOutside(req);
    if (player) return player.answer(req, outside);
    if (outside) {
      const mocked = mocks ? await mocks.answerHttp(seen(req)) : undefined;
      return mocked && { status: mocked.status, headers: mocked.headers, body: Buffer.from(mocked.body) };
    }
    const kind = classify(req);
    if (kind.kind === 'execute' && mocks && !mocks.empty) {
      const mocked = await mocks.answer(kind.entity, kind.action, kind.params);
      if (mocked)
        return { status: mocked.status, headers: mocked.headers, body: Buffer.from(JSON.stringify(mocked.body)) };
    }
    if (kind.kind === 'token') return tokens?.get(req, this.options.data ?? '', this.options.now());
    return undefined;
  }

  completed(req: OutgoingRequest, res: Answer, forwarded: boolean): void {
    const outside = this.isOutside(req);
    if (forwarded) this.options.recorder?.record(req, res, outside);
    const seq = this.order.get(req) ?? this.sent;
    const ok = res.status >= 200 && res.status < 300;
    if (outside) {
      if (ok && req.method !== 'GET' && req.method !== 'HEAD') this.accepted.push({ seq, write: httpWrite(req) });
      return;
    }
    const kind = classify(req);
    if (forwarded && kind.kind === 'token') this.options.tokens?.put(req, this.options.data ?? '', res);
    if (kind.kind === 'execute' && isWriteAction(kind.entity, kind.action) && ok)
      this.accepted.push({ seq, write: { entity: kind.entity, action: kind.action, params: kind.params } });
  }

  /** The accepted writes in the order they were sent. */
  writes(): WriteRecord[] {
    return [...this.accepted].sort((a, b) => a.seq - b.seq).map((w) => w.write);
  }

  private isOutside(req: OutgoingRequest): boolean {
    return req.origin !== this.options.serviceOrigin;
  }
}

/** An outside request as mocks and `expect.writes` see it: one absolute URL. */
export function seen(req: OutgoingRequest): HttpRequestSeen {
  return { method: req.method, url: `${req.origin}${req.path}`, headers: req.headers, body: req.body };
}

function httpWrite(req: OutgoingRequest): HttpWrite {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (!CLIENT_HEADERS.has(name) && !(name === 'accept' && value === '*/*')) headers[name] = value;
  const s = seen(req);
  return { http: { method: req.method, url: s.url, headers, body: bodyOf(s) } };
}
