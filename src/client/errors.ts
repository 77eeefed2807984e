import { RecipeError } from '../errors/index.js';
import type { HttpResponse } from './http.js';
import type { Redactor } from './redact.js';

/** The service's error body, read tolerantly: {message, errors: [{field, message, error_code}]} or {detail}. */
export interface ServiceErrorBody {
  readonly message: string;
  readonly errorCode: string | null;
  readonly field: string | null;
}

/** HTTP details a client error carries in its params (besides entity and action). */
export interface HttpErrorParams {
  status: number;
  errorCode: string | null;
  field: string | null;
  serviceMessage: string;
}

/** Reads whatever error body the service sent; never throws. */
export function readErrorBody(res: HttpResponse): ServiceErrorBody {
  const text = res.body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { message: text.trim().slice(0, 500) || `HTTP ${res.status}`, errorCode: null, field: null };
  }
  const body = (parsed ?? {}) as Record<string, unknown>;
  const first = Array.isArray(body.errors) ? (body.errors[0] as Record<string, unknown> | undefined) : undefined;
  const message =
    str(body.message) ?? str(first?.message) ?? str(body.detail) ?? str(body.error) ?? `HTTP ${res.status}`;
  return {
    message,
    errorCode: str(first?.error_code) ?? str(body.error_code) ?? null,
    field: str(first?.field) ?? null,
  };
}

/** The catalog error for a non-2xx answer to entity.action, with secrets masked. */
export function errorForResponse(
  res: HttpResponse,
  where: { entity: string; action: string },
  redactor: Redactor,
): RecipeError {
  const body = readErrorBody(res);
  const params = {
    entity: where.entity,
    action: where.action,
    status: res.status,
    errorCode: body.errorCode,
    field: body.field,
    serviceMessage: redactor.redact(body.message),
    errorCodePart: body.errorCode ? ` ${body.errorCode}` : '',
  };
  if (body.errorCode === 'context_store_not_ready') return new RecipeError('C008', params);
  return new RecipeError('C005', params);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
