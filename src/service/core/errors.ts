import { formatTemplate, serviceCodes, type ServiceCatalogEntry } from '../../errors/index.js';

export type ServiceCode = keyof typeof serviceCodes;

/** One entry of the error body's errors[]: which field, what is wrong, and a stable error_code. */
export interface ServiceErrorItem {
  field: string | null;
  message: string;
  error_code: string;
  details: Record<string, unknown> | null;
}

/**
 * An error the service answers with: the status and error_code come from the catalog; the one error
 * handler in app.ts turns it into {message, errors: [...]}. Never carries SQL, stacks or secrets.
 */
export class ServiceError extends Error {
  readonly code: ServiceCode;
  readonly status: number;
  readonly errorCode: string;
  readonly items: ServiceErrorItem[];
  readonly headers: Record<string, string>;

  constructor(
    code: ServiceCode,
    params: Record<string, unknown> & { message?: string } = {},
    opts: {
      field?: string | null;
      details?: Record<string, unknown> | null;
      items?: ServiceErrorItem[];
      headers?: Record<string, string>;
    } = {},
  ) {
    const entry: ServiceCatalogEntry = serviceCodes[code];
    const message = formatTemplate(entry.template, params);
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.status = entry.status;
    this.errorCode = entry.errorCode;
    this.headers = opts.headers ?? {};
    this.items = opts.items ?? [
      { field: opts.field ?? null, message, error_code: entry.errorCode, details: opts.details ?? null },
    ];
  }

  /** The JSON body every error response has. */
  toBody(): { message: string; errors: ServiceErrorItem[] } {
    return { message: this.message, errors: this.items };
  }
}
