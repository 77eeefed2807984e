import type { CatalogEntry } from './types.js';

/**
 * A: connector calls (execute, paginate, download) checked against the connector catalog before anything
 * runs: entity, action, params. W: warnings, hints about habits from other tools; they do not fail
 * `recipe validate` unless --strict. Owned by src/catalog/ and the connector checks in src/compile/.
 */
export const connectorCodes = {
  A001: {
    template: 'connector type {type} has no entity "{entity}"{hint}; valid entities: {valid}',
    class: 'invalid',
  },
  A002: {
    template: 'entity "{entity}" of connector type {type} has no action "{action}"{hint}; valid actions: {valid}',
    class: 'invalid',
  },
  A003: { template: '{where}: missing required {what} "{name}"', class: 'invalid' },
  A004: { template: '{where}: unknown {what} "{name}"{hint}{allowed}', class: 'invalid' },
  A005: { template: '{where}: expected {expected}, got {actual}', class: 'invalid' },
  A006: { template: '{where}: must be one of {allowed}, got {actual}', class: 'invalid' },
  A007: { template: '{where}: {rule}', class: 'invalid' },
  A008: { template: '{where}: not accepted ({reason})', class: 'invalid' },
  A009: { template: '{where}: {reason}', class: 'invalid' },
  A010: { template: 'connector type "{name}" is not offered by {source}{hint}; types: {valid}', class: 'invalid' },

  W001: {
    template: '"{text}" is sent literally: {{ }} is not expression syntax here; did you mean "{suggestion}"?',
    class: 'invalid',
    severity: 'warning',
  },
  W002: {
    template: '"{text}" is sent literally outside ${ }; did you mean "{suggestion}"?',
    class: 'invalid',
    severity: 'warning',
  },
  W003: { template: '"{operator}" is not a JSONata operator; {advice}', class: 'invalid', severity: 'warning' },
  W004: {
    template:
      '".length" reads a field named "length"; JSONata has no length property: use $count(...) for a list or $length(...) for a string',
    class: 'invalid',
    severity: 'warning',
  },
  W005: {
    template:
      'secret "{name}" is declared but never read; remove it (a run stops when its environment variable is not set)',
    class: 'invalid',
    severity: 'warning',
  },
  W006: {
    template: 'default of input "{name}" looks like an expression, but defaults are taken literally: {text}',
    class: 'invalid',
    severity: 'warning',
  },
  W007: {
    template: '{where}: {entity} has no property "{name}"{hint}; the connector ignores it',
    class: 'invalid',
    severity: 'warning',
  },
  W008: {
    template: '"{text}" is GitHub Actions syntax; a recipe writes an expression as ${ }: did you mean "{suggestion}"?',
    class: 'invalid',
    severity: 'warning',
  },
  W009: {
    template:
      '"{text}" reads a step output the GitHub Actions way; a step\'s output is the variable named after its id: did you mean "{suggestion}"?',
    class: 'invalid',
    severity: 'warning',
  },
  W010: {
    template:
      '"{name}" is {what}, and a recipe expression has none: it is always undefined here; name what you mean ($inputs.x, $secrets.x, or a step\'s output as $id){where}',
    class: 'invalid',
    severity: 'warning',
  },
  W011: {
    template: '"${name}" is not a built-in function; did you mean "${suggestion}"?',
    class: 'invalid',
    severity: 'warning',
  },
} satisfies Record<string, CatalogEntry>;
