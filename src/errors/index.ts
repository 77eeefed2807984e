import { compileCodes } from './catalog-compile.js';
import { distributeCodes } from './catalog-distribute.js';
import { fleetCodes } from './catalog-fleet.js';
import { journalCodes } from './catalog-journal.js';
import { packageCodes } from './catalog-package.js';
import { connectorCodes } from './catalog-connector.js';
import { runCodes } from './catalog-run.js';
import { schemaCodes } from './catalog-schema.js';
import { sourceCodes } from './catalog-source.js';
import { testCodes } from './catalog-test.js';
import { triggerCodes } from './catalog-trigger.js';
import type { Location } from './location.js';
import type { CatalogEntry, Diagnostic, ErrorClass } from './types.js';

export type { CatalogEntry, Diagnostic, ErrorClass } from './types.js';
export {
  displayPath,
  formatFileLineCol,
  formatLocation,
  type Location,
  type Position,
  type SourceLoc,
} from './location.js';
export { serviceCodes, type ServiceCatalogEntry } from './catalog-service.js';
export { consoleCodes, type ConsoleCatalogEntry } from './catalog-console.js';
export { triggerHttpCodes, type TriggerHttpEntry } from './catalog-trigger.js';

/**
 * The one catalog of engine error codes: a phase letter and a number, each with a template.
 * The phase files are split only so that each stage owns its own codes; this object is the catalog.
 */
export const catalog = {
  ...sourceCodes,
  ...schemaCodes,
  ...compileCodes,
  ...connectorCodes,
  ...runCodes,
  ...journalCodes,
  ...testCodes,
  ...fleetCodes,
  ...distributeCodes,
  ...triggerCodes,
  ...packageCodes,
} as const;
export type ErrorCode = keyof typeof catalog;

/** Fills a template's {name} placeholders; unknown placeholders are left as they are. */
export function formatTemplate(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** An error from the catalog, carrying its code, its location and the params that filled the template. */
export class RecipeError extends Error {
  readonly code: ErrorCode;
  readonly class: ErrorClass;
  readonly location: Location | undefined;
  readonly params: Record<string, unknown>;

  constructor(code: ErrorCode, params: Record<string, unknown> = {}, location?: Location, options?: ErrorOptions) {
    const entry: CatalogEntry = catalog[code];
    super(formatTemplate(entry.template, params), options);
    this.name = 'RecipeError';
    this.code = code;
    this.class = entry.class;
    this.location = location;
    this.params = params;
  }
}

/** Drops diagnostics that say the same thing at the same place (several checks can reach one problem). */
export function dedupeDiagnostics(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.line}:${d.column}:${d.code}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
