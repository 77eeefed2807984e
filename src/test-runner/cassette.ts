import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { REDACTED, type Redactor } from '../client/index.js';
import { classify, jsonAnswer, parseJson } from './exchange.js';
import type { Answer, OutgoingRequest } from './interceptor.js';

/** The cassette format's version; a file of another version is refused (T008). */
export const CASSETTE_VERSION = 1;

/** Response headers worth keeping: what the client reads. */
const KEPT_HEADERS = ['content-type', 'content-disposition', 'retry-after'];

/**
 * One recorded exchange: the request as sent (minus credentials) and the answer. A request to a URL outside
 * the connector API (an http step) also has its `url` (origin and path); a connector call has none.
 */
export interface Interaction {
  readonly request: { readonly method: string; readonly path: string; readonly url?: string; readonly body?: unknown };
  readonly response: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    /** A JSON body as JSON; anything else (a download) as base64. */
    readonly body?: unknown;
    readonly body_base64?: string;
  };
}

/** A cassette file: what a live service answered to one case, secrets and tokens scrubbed. */
export interface Cassette {
  readonly version: number;
  readonly recorded_at: string;
  readonly recipe: string;
  readonly case: string;
  readonly interactions: readonly Interaction[];
}

/** Reads a cassette; throws an Error whose message says what is wrong with it. */
export function readCassette(file: string): Cassette {
  const value = parseJson(readFileSync(file, 'utf8')) as Partial<Cassette> | undefined;
  if (!value || typeof value !== 'object') throw new Error('not a JSON object');
  if (value.version !== CASSETTE_VERSION)
    throw new Error(`version ${String(value.version)}, expected ${CASSETTE_VERSION}`);
  if (!Array.isArray(value.interactions)) throw new Error('no interactions list');
  return value as Cassette;
}

/**
 * Answers a case's requests from a cassette, offline. The token exchange and GETs (lookups, inspect) may be
 * asked again; each recorded execute answers once, in order, so retries and pages replay as they were recorded.
 * A request the cassette does not hold is answered 501 and remembered as a miss, which fails the case.
 */
export class CassettePlayer {
  private readonly used = new Set<number>();
  readonly misses: string[] = [];
  /**
   * Masks the case's secrets in a request before it is compared: the cassette was saved with them masked, and a
   * replay runs with placeholder values.
   */
  redact: (value: unknown) => unknown = (value) => value;

  constructor(
    private readonly cassette: Cassette,
    private readonly display: string,
  ) {}

  /**
   * `outside`: the request is an http step's (matched by URL; every request but GET and HEAD answers once,
   * in order); else a connector call (matched by path: the service's origin differs between runs).
   */
  answer(req: OutgoingRequest, outside = false): Answer {
    const kind = outside ? ({ kind: 'other' } as const) : classify(req);
    const body = this.redact(requestBody(req.body));
    const url = outside ? `${req.origin}${req.path}` : undefined;
    const once = outside ? req.method !== 'GET' && req.method !== 'HEAD' : req.method === 'POST';
    const index = this.cassette.interactions.findIndex((it, i) => {
      if (it.request.method !== req.method || it.request.path !== req.path || it.request.url !== url) return false;
      if (kind.kind === 'token') return true;
      if (!once) return true;
      return !this.used.has(i) && isDeepStrictEqual(it.request.body, body);
    });
    const found = this.cassette.interactions[index];
    if (!found) {
      const what =
        kind.kind === 'execute'
          ? `execute ${kind.entity}.${kind.action} ${JSON.stringify(kind.params)}`
          : `${req.method} ${url ?? req.path}`;
      this.misses.push(what);
      return jsonAnswer(501, {
        message: `cassette ${this.display} has no answer for ${what}`,
        errors: [{ field: null, message: 'not in the cassette', error_code: 'not_in_cassette', details: {} }],
      });
    }
    if (once && kind.kind !== 'token') this.used.add(index);
    const res = found.response;
    const bytes =
      res.body_base64 !== undefined
        ? Buffer.from(res.body_base64, 'base64')
        : Buffer.from(JSON.stringify(res.body ?? null));
    return { status: res.status, headers: { ...res.headers }, body: bytes };
  }
}

/** Keeps the exchanges of a case run against a live service, to write them as a cassette. */
export class CassetteRecorder {
  private readonly interactions: Interaction[] = [];

  /** `outside`: an http step's request, kept with its URL (see CassettePlayer.answer). */
  record(req: OutgoingRequest, res: Answer, outside = false): void {
    const kind = outside ? ({ kind: 'other' } as const) : classify(req);
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) if (res.headers[name] !== undefined) headers[name] = res.headers[name];
    const isJson = (res.headers['content-type'] ?? '').includes('json');
    const json = isJson ? parseJson(res.body.toString('utf8')) : undefined;
    let body: unknown = json;
    // The credentials and the token never enter a cassette; replay needs only a token-shaped answer.
    if (kind.kind === 'token' && json && typeof json === 'object')
      body = { ...(json as Record<string, unknown>), access_token: REDACTED };
    const reqBody = kind.kind === 'token' ? { client_id: REDACTED, client_secret: REDACTED } : requestBody(req.body);
    this.interactions.push({
      request: {
        method: req.method,
        path: req.path,
        ...(outside ? { url: `${req.origin}${req.path}` } : {}),
        ...(reqBody !== undefined ? { body: reqBody } : {}),
      },
      response: {
        status: res.status,
        headers,
        ...(isJson && json !== undefined
          ? { body }
          : res.body.length > 0
            ? { body_base64: res.body.toString('base64') }
            : {}),
      },
    });
  }

  /** Writes the cassette with every secret value the redactor knows masked (recipe secrets, client secret, tokens). */
  save(file: string, about: { recipe: string; case: string; now: number }, redactor: Redactor): void {
    const cassette: Cassette = {
      version: CASSETTE_VERSION,
      recorded_at: new Date(about.now).toISOString(),
      recipe: about.recipe,
      case: about.case,
      interactions: this.interactions,
    };
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(redactor.redactValue(cassette), null, 2)}\n`);
  }
}

/** A request body as a cassette keeps it: JSON as JSON, other text (a form, a webhook's text) as the text. */
function requestBody(text: string | undefined): unknown {
  return parseJson(text) ?? (text === '' ? undefined : text);
}
