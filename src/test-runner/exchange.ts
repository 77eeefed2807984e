import { isExecutePath, isTokenPath } from '../client/index.js';
import type { OutgoingRequest } from './interceptor.js';

/** What a request to the connector service is, read from its path and body. */
export type RequestKind =
  | { readonly kind: 'token' }
  | { readonly kind: 'execute'; readonly entity: string; readonly action: string; readonly params: unknown }
  | { readonly kind: 'other' };

/** Classifies a request: the token exchange, an execute call (with its entity, action and params), or other. */
export function classify(req: OutgoingRequest): RequestKind {
  const pathname = req.path.split('?')[0] ?? '';
  if (req.method === 'POST' && isTokenPath(pathname)) return { kind: 'token' };
  if (req.method === 'POST' && isExecutePath(pathname)) {
    const body = parseJson(req.body) as { entity?: unknown; action?: unknown; params?: unknown } | undefined;
    if (body && typeof body.entity === 'string' && typeof body.action === 'string')
      return { kind: 'execute', entity: body.entity, action: body.action, params: body.params ?? {} };
  }
  return { kind: 'other' };
}

/** JSON.parse that gives undefined for what is not JSON. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A JSON answer. */
export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(JSON.stringify(body)),
  };
}
