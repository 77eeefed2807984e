import type { Dispatcher } from 'undici';

/** An HTTP request on its way to the connector service, as the client sent it. */
export interface OutgoingRequest {
  readonly method: string;
  readonly origin: string;
  /** Path and query. */
  readonly path: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** A complete HTTP answer. */
export interface Answer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** Decides, per request, whether the test runner answers it (a mock, a cassette) or lets it through. */
export interface TrafficPolicy {
  /** The answer to give, or undefined to forward the request to the service. */
  answer(req: OutgoingRequest): Promise<Answer | undefined>;
  /** Told about every exchange that completed, answered here or forwarded, with the answer the client got. */
  completed(req: OutgoingRequest, res: Answer, forwarded: boolean): void;
}

/**
 * An undici dispatcher over `base` that asks `policy` about every request: answered ones never reach the
 * network; the others go to `base` and their answers are reported on the way back. The one place of the test
 * runner that speaks undici's handler protocol.
 */
export function interceptTraffic(base: Dispatcher, policy: TrafficPolicy): Dispatcher {
  return base.compose((dispatch) => (opts, handler) => {
    const req: OutgoingRequest = {
      method: String(opts.method),
      origin: String(opts.origin ?? ''),
      path: opts.path,
      headers: headersOf(opts.headers),
      body:
        typeof opts.body === 'string' ? opts.body : Buffer.isBuffer(opts.body) ? opts.body.toString('utf8') : undefined,
    };
    policy.answer(req).then(
      (answer) => {
        if (answer) {
          reply(handler, answer);
          policy.completed(req, answer, false);
        } else {
          dispatch(
            opts,
            capture(handler, (res) => policy.completed(req, res, true)),
          );
        }
      },
      (err: unknown) => handler.onResponseError?.(controller(), err instanceof Error ? err : new Error(String(err))),
    );
    return true;
  });
}

/** The request's headers as one lower-case map (undici takes a map, a flat list or pairs). */
function headersOf(raw: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (name: string, value: unknown): void => {
    if (value !== undefined && value !== null)
      out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  };
  if (!raw) return out;
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) put(String(raw[i]), raw[i + 1]);
    return out;
  }
  if (Symbol.iterator in raw) {
    for (const [name, value] of raw as Iterable<[string, unknown]>) put(name, value);
    return out;
  }
  for (const [name, value] of Object.entries(raw)) put(name, value);
  return out;
}

/** A controller for answers given here: nothing to pause, and an abort has nothing left to stop. */
function controller(): Dispatcher.DispatchController {
  let aborted = false;
  let reason: Error | null = null;
  return {
    get aborted() {
      return aborted;
    },
    get paused() {
      return false;
    },
    get reason() {
      return reason;
    },
    abort(err: Error) {
      aborted = true;
      reason = err;
    },
    pause() {},
    resume() {},
  };
}

function reply(handler: Dispatcher.DispatchHandler, answer: Answer): void {
  const c = controller();
  try {
    handler.onRequestStart?.(c, {});
    if (c.aborted) return;
    handler.onResponseStart?.(c, answer.status, { ...answer.headers }, '');
    handler.onResponseData?.(c, answer.body);
    handler.onResponseEnd?.(c, {});
  } catch (err) {
    handler.onResponseError?.(c, err as Error);
  }
}

/** Passes a forwarded exchange through to `handler`, keeping a copy of the answer for `done`. */
function capture(handler: Dispatcher.DispatchHandler, done: (res: Answer) => void): Dispatcher.DispatchHandler {
  let status = 0;
  const headers: Record<string, string> = {};
  const chunks: Buffer[] = [];
  return {
    onRequestStart: (c, context: unknown) => handler.onRequestStart?.(c, context),
    onRequestUpgrade: (c, statusCode, h, socket) => handler.onRequestUpgrade?.(c, statusCode, h, socket),
    onResponseStart: (c, statusCode, h, message) => {
      status = statusCode;
      for (const [name, value] of Object.entries(h))
        if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      handler.onResponseStart?.(c, statusCode, h, message);
    },
    onResponseData: (c, chunk) => {
      chunks.push(chunk);
      handler.onResponseData?.(c, chunk);
    },
    onResponseEnd: (c, trailers) => {
      done({ status, headers, body: Buffer.concat(chunks) });
      handler.onResponseEnd?.(c, trailers);
    },
    onResponseError: (c, err) => handler.onResponseError?.(c, err),
  };
}
