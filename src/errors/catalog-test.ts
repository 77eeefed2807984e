import type { CatalogEntry } from './types.js';

/**
 * T: recipe test files (*.test.yaml) and the cassettes they name. Owned by src/test-runner/. The structure of a
 * test file is checked against schemas/recipe-test.schema.json and reported with the S codes.
 */
export const testCodes = {
  T001: { template: 'recipe {path} not found', class: 'invalid' },
  T002: { template: 'recipe {path} is invalid ({problems}; run `recipe validate {path}`)', class: 'invalid' },
  T003: { template: 'fixtures {path}: {reason}', class: 'invalid' },
  T004: { template: 'give either "fixtures" or "seed", not both', class: 'invalid' },
  T005: { template: 'duplicate case name "{name}" (first at line {line})', class: 'invalid' },
  T006: { template: 'after: no case named "{name}" above this one{hint}', class: 'invalid' },
  T007: {
    template: 'cassette {path} not found; record it with `recipe test --record` against a live service',
    class: 'invalid',
  },
  T008: { template: 'cassette {path} is unusable: {reason}', class: 'invalid' },
  T009: { template: 'expect: status succeeded contradicts an expected error', class: 'invalid' },
  T010: { template: 'no test files (*.test.yaml) found in {paths}', class: 'invalid' },
  T011: {
    template: 'a case with a cassette cannot also use {field}: every answer comes from the cassette',
    class: 'invalid',
  },
  T012: {
    template:
      '{step}: {method} {url} was not sent: `recipe test` keeps the network off and no mock answers it; add a mock (`- http: {method: {method}, url: ...}` with `respond:`), or let it out (`network: allow` in the test file, or `recipe test --allow-network`)',
    class: 'run',
  },
  T013: {
    template: 'an http mock answers with status, headers and body: "{field}" belongs to connector mocks (entity:)',
    class: 'invalid',
  },
} satisfies Record<string, CatalogEntry>;
