import { catalog, formatTemplate, triggerHttpCodes } from '../errors/index.js';

/** A G code the triggers server answers: the HTTP status and body {code, error_code, message, field?}. */
export class TriggerHttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: keyof typeof triggerHttpCodes,
    params: Record<string, unknown> = {},
    readonly field?: string,
  ) {
    super(formatTemplate(catalog[code].template, params));
    this.status = triggerHttpCodes[code].status;
  }

  /** The documented error shape (docs/triggers.md). */
  toBody(): Record<string, unknown> {
    return {
      code: this.code,
      error_code: triggerHttpCodes[this.code].errorCode,
      message: this.message,
      ...(this.field !== undefined ? { field: this.field } : {}),
    };
  }
}
