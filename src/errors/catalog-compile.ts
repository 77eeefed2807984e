import type { CatalogEntry } from './types.js';

/**
 * E: JSONata expressions inside ${ } (syntax, unknown variables). Owned by src/expr/.
 * R: references and structure checks after the schema (step ids, calls, secrets, inputs). Owned by src/compile/.
 * I: recipe inputs given on the command line.
 */
export const compileCodes = {
  E001: { template: 'expression syntax error: {reason}', class: 'invalid' },
  E002: { template: 'unclosed "${": no matching "}" (write "$${" for a literal "${")', class: 'invalid' },
  E003: { template: 'empty expression "${ }"', class: 'invalid' },
  E004: { template: 'unterminated string in expression: this quote is never closed', class: 'invalid' },
  E005: { template: 'unterminated comment in expression: this /* is never closed', class: 'invalid' },
  R001: { template: 'duplicate step id "{id}" (first defined at line {firstLine})', class: 'invalid' },
  R002: { template: 'unknown variable ${name}{hint}', class: 'invalid' },
  R003: { template: '${name} is defined at line {line}, later than this point', class: 'invalid' },
  R004: { template: '${name} is only defined inside the steps of the loop at line {line}', class: 'invalid' },
  R005: { template: 'input "{name}" is not declared under inputs{hint}', class: 'invalid' },
  R006: { template: 'secret "{name}" is not declared under secrets{hint}', class: 'invalid' },
  R007: { template: '{what} "{name}" shadows the JSONata built-in function ${name}', class: 'invalid' },
  R008: { template: '{what} "{name}" is a reserved variable name', class: 'invalid' },
  R009: { template: 'called recipe {path} not found', class: 'invalid' },
  R010: { template: 'call cycle: {cycle}', class: 'invalid' },
  R011: { template: 'called recipe {path} is invalid ({problems}; run `recipe validate` on it)', class: 'invalid' },
  R012: { template: 'call: {path} has no input "{name}"{hint}', class: 'invalid' },
  R013: { template: 'call: required input "{name}" of {path} is not given', class: 'invalid' },
  R014: { template: '${name} is only defined in {where}', class: 'invalid' },
  R016: {
    template: '${name} is the id of a step inside the {parent} at line {line}; it is visible only in that list',
    class: 'invalid',
  },
  R017: { template: '${name} is the output of the step at line {line}, which is still running here', class: 'invalid' },
  R015: { template: 'default of input "{name}" {reason}', class: 'invalid' },
  I001: { template: 'input "{name}": {reason}', class: 'invalid' },
  I002: { template: 'missing required input "{name}"', class: 'invalid' },
  I003: { template: 'unknown input "{name}"{hint}', class: 'invalid' },
  I004: { template: 'input "{name}": expected {type}, got "{value}"', class: 'invalid' },
  I005: { template: 'input "{name}": must be one of {allowed}, got {value}', class: 'invalid' },
  I006: { template: 'fixtures {file}: {reason}', class: 'invalid' },
} satisfies Record<string, CatalogEntry>;
