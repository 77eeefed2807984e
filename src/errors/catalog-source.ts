import type { CatalogEntry } from './types.js';

/** Y: reading the YAML file (syntax, duplicate keys, aliases). Owned by src/source/. */
export const sourceCodes = {
  Y001: { template: 'cannot read {file}: {reason}', class: 'invalid' },
} satisfies Record<string, CatalogEntry>;
