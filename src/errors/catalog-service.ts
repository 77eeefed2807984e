/**
 * H: errors the embedded connector service answers over HTTP. Each has the HTTP status and the
 * snake_case error_code that goes into the body {message, errors: [{field, message, error_code, details}]}.
 * Owned by src/service/.
 */
export interface ServiceCatalogEntry {
  status: number;
  errorCode: string;
  template: string;
}

export const serviceCodes = {
  H400: { status: 400, errorCode: 'validation_error', template: '{message}' },
  H401: { status: 401, errorCode: 'unauthorized', template: '{message}' },
  H404: { status: 404, errorCode: 'not_found', template: '{message}' },
  H500: { status: 500, errorCode: 'internal_error', template: 'internal error' },
} satisfies Record<string, ServiceCatalogEntry>;
