import type { CatalogEntry } from './types.js';

/** Y: reading the YAML file (syntax, duplicate keys, aliases). Owned by src/source/. */
export const sourceCodes = {
  Y001: { template: 'cannot read {file}: {reason}', class: 'invalid' },
  Y002: { template: 'YAML syntax error: {reason}', class: 'invalid' },
  Y003: { template: 'duplicate key "{key}" (first defined at line {firstLine})', class: 'invalid' },
  Y004: { template: 'too many aliases: {reason}; refusing to expand (possible alias bomb)', class: 'invalid' },
  Y005: { template: 'document is too large after alias expansion (more than {limit} nodes)', class: 'invalid' },
  Y006: { template: 'keys must be strings; got {type}', class: 'invalid' },
  Y007: { template: 'value {value} is not representable in JSON', class: 'invalid' },
  Y008: { template: 'a recipe file holds exactly one YAML document; found another one here', class: 'invalid' },
  Y009: { template: 'the file is empty', class: 'invalid' },
  Y010: { template: 'alias *{name} refers to one of its own ancestors', class: 'invalid' },
  Y012: { template: 'a merge key (<<) takes a map or a list of maps', class: 'invalid' },
  Y013: { template: 'nesting deeper than {limit} levels', class: 'invalid' },
  Y011: { template: 'YAML tag {tag} is not supported', class: 'invalid' },
} satisfies Record<string, CatalogEntry>;
