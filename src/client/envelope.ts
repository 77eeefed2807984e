import { RecipeError } from '../errors/index.js';
import type { HttpResponse } from './http.js';
import type { Redactor } from './redact.js';

/** The execute answer; connector_metadata is normalised to an object (the live service may send null). */
export interface Envelope {
  readonly status: unknown;
  readonly result: unknown;
  readonly connector_metadata: Record<string, unknown>;
  readonly execution_metadata: Record<string, unknown>;
  readonly [key: string]: unknown;
}

/** The JSON of an answer's body; C010 when it is not JSON. */
export function parseJson(res: HttpResponse, where: { entity: string; action: string }, redactor: Redactor): unknown {
  return parseJsonText(res.body.toString('utf8'), res, where, redactor);
}

/** `text` (an answer's body) parsed; C010 when it is not JSON. */
export function parseJsonText(
  text: string,
  res: HttpResponse,
  where: { entity: string; action: string },
  redactor: Redactor,
): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const ct = res.headers['content-type'] ?? 'no content type';
    throw new RecipeError('C010', {
      entity: where.entity,
      action: where.action,
      reason: redactor.redact(`the body is not JSON (${ct}, ${res.body.length} bytes)`),
    });
  }
}

/**
 * The envelope of an execute answer's parsed body: connector_metadata and execution_metadata made objects
 * (the live service may send null). C010 when the body is not a JSON object. A replay from the journal
 * goes through this too, so a recorded answer gives the very envelope the live one gave. `body` must be the
 * caller's own, freshly parsed value: it becomes the envelope.
 */
export function toEnvelope(body: unknown, where: { entity: string; action: string }): Envelope {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new RecipeError('C010', {
      entity: where.entity,
      action: where.action,
      reason: 'the body is not a JSON object',
    });
  }
  // Completed in place, not copied (a copy per request): every caller hands over a value it has just parsed
  // and keeps no other reference to. status and result become own members even when the answer lacks them,
  // as they were in the copy.
  const env = body as Record<string, unknown>;
  env.status = env.status;
  env.result = env.result;
  env.connector_metadata = asObject(env.connector_metadata);
  env.execution_metadata = asObject(env.execution_metadata);
  return env as Envelope;
}

/** The value when it is a JSON object, else an empty one. */
export function asObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
