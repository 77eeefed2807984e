import type { ServiceErrorItem } from './errors.js';

/** The parts of an ajv error we read (Fastify's validation errors have the same shape). */
export interface AjvLikeError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Turns a JSON pointer ("/a/0/b") plus a prefix into a dotted field path ("params.a.0.b"). */
function toFieldPath(prefix: string, pointer: string, extra?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  // An error about the whole body (e.g. "must be object") has no path: call it "body".
  return [prefix, ...parts].filter((p) => p !== '').join('.') || prefix || 'body';
}

/** One errors[] item per ajv error, with the field it concerns and a readable message. */
export function ajvErrorsToItems(errors: readonly AjvLikeError[], prefix: string): ServiceErrorItem[] {
  return errors.map((e) => {
    let extra: string | undefined;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      extra = String(e.params['missingProperty']);
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      extra = String(e.params['additionalProperty']);
      message = 'is not allowed here (unknown field)';
    } else if (e.keyword === 'enum') {
      message = `must be one of: ${(e.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    }
    const field = toFieldPath(prefix, e.instancePath, extra);
    return {
      field,
      message: `${field} ${message}`,
      error_code: 'validation_error',
      details: { keyword: e.keyword, ...e.params },
    };
  });
}
