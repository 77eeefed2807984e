import type { CatalogEntry } from './types.js';

/**
 * E: JSONata expressions inside ${ } (syntax, unknown variables). Owned by src/expr/.
 * R: references and structure checks after the schema (step ids, calls, secrets, inputs). Owned by src/compile/.
 * I: recipe inputs given on the command line.
 */
export const compileCodes = {
  E001: { template: 'expression syntax error: {reason}', class: 'invalid' },
  R001: { template: 'duplicate step id "{id}"', class: 'invalid' },
  I001: { template: 'input "{name}": {reason}', class: 'invalid' },
} satisfies Record<string, CatalogEntry>;
