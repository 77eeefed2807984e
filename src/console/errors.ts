import { consoleCodes, formatTemplate, type ConsoleCatalogEntry } from '../errors/index.js';
import type { ApiError } from './api-types.js';

export type ConsoleCode = keyof typeof consoleCodes;

/** An error the console answers with; the one error handler in server.ts turns it into {message, error_code}. */
export class ConsoleError extends Error {
  readonly code: ConsoleCode;
  readonly status: number;
  readonly errorCode: string;

  constructor(code: ConsoleCode, params: Record<string, unknown> = {}) {
    const entry: ConsoleCatalogEntry = consoleCodes[code];
    super(formatTemplate(entry.template, params));
    this.name = 'ConsoleError';
    this.code = code;
    this.status = entry.status;
    this.errorCode = entry.errorCode;
  }

  toBody(): ApiError {
    return { message: this.message, error_code: this.errorCode };
  }
}
