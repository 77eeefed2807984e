import type { CatalogEntry } from './types.js';

/**
 * X: running a plan (asserts, fail steps, paging guards, timeouts). Owned by src/run/.
 * C: configuration, authentication and the connector API as seen by the client. Owned by src/client/.
 */
export const runCodes = {
  X001: { template: '{message}', class: 'run' },
  X002: { template: 'assertion failed: {message}', class: 'run' },
  X003: { template: '{message}', class: 'run' },
  X004: {
    template:
      'paginate {entity}.{action}: the {what} repeats ({detail}); stopping instead of looping forever. The connector may ignore the paging key sent ({key}); give the step a `next` expression',
    class: 'run',
  },
  X005: { template: 'step timed out after {timeoutMs} ms', class: 'run' },
  X006: {
    template:
      'the context store for {entity} did not become searchable within {timeoutMs} ms (status {status}); raise timeout_ms or page with list instead',
    class: 'run',
  },
  X007: { template: '{what} must be {expected}, got {got}', class: 'run' },
  X008: { template: 'expression failed: {reason}', class: 'run' },
  X009: { template: 'run interrupted', class: 'interrupted' },
  X022: {
    template:
      '${name} is derived from a secret, and the distributed foreach at line {line} would send it to its workers masked, as ***: read $secrets inside the loop instead (each worker reads its own), or remove `distribute`',
    class: 'invalid',
  },
  X021: { template: 'run cancelled by `recipe cancel`{reason}', class: 'interrupted' },
  X010: { template: 'download: cannot write {path}: {reason}', class: 'run' },
  X011: {
    template:
      'paginate {entity}.{action}: cannot find the items in the result ({got}); expected an array, {data: [...]} or {results: [...]}',
    class: 'run',
  },
  X012: { template: 'call {path}: input "{name}": {reason}', class: 'run' },
  X013: {
    template:
      'secret "{name}": environment variable {name} is not set; export it, or put it in .env (or pass --env-file FILE)',
    class: 'config',
  },
  X014: { template: 'request budget exceeded: the run may send at most {max} requests', class: 'run' },
  X015: {
    template:
      'no connector for {entity}.{action}: give the recipe (or the step) a `connector:`, or pass --connector ID',
    class: 'config',
  },
  X016: {
    template: "http {method}: the host {host} is not in the recipe's http.allow list ({allowed})",
    class: 'run',
  },
  X017: {
    template: 'dry run: {invalid} of {total} write{s} would be refused by the connector',
    class: 'run',
  },
  X018: {
    template:
      "expression stopped after {timeoutMs} ms (the recipe's expression_timeout_ms): an endless loop or recursion? Raise expression_timeout_ms if it is just long",
    class: 'run',
  },
  X019: { template: 'expression too deep: {reason}', class: 'run' },
  X020: {
    template:
      'download: {path} is outside the working directory ({reason}); write under it, or set allow_outside: true on the step',
    class: 'run',
  },

  C001: { template: 'configuration: {reason}', class: 'config' },
  C002: { template: 'authentication failed: the token exchange answered HTTP {status}{detail}', class: 'config' },
  C003: {
    template: 'authentication failed: {entity}.{action} answered HTTP 401 again after a fresh token{detail}',
    class: 'config',
  },
  C004: { template: 'connector lookup: {reason}', class: 'config' },
  C005: { template: '{entity}.{action}: HTTP {status}{errorCodePart}: {serviceMessage}', class: 'run' },
  C006: { template: '{entity}.{action}: cannot reach {origin}: {reason}', class: 'run' },
  C007: { template: '{entity}.{action}: no answer within {timeoutMs} ms', class: 'run' },
  C008: {
    template:
      '{entity}.{action}: the context store is not ready ({serviceMessage}). Use `wait_for_context_store: true` on the step to wait for it, or read with paginate over {entity}.list until it is ready',
    class: 'run',
  },
  C009: {
    template: '{entity}.{action}: the download answered an empty body; the file is missing or empty',
    class: 'run',
  },
  C010: { template: '{entity}.{action}: unexpected answer: {reason}', class: 'run' },
  C011: { template: 'request cancelled', class: 'interrupted' },
  C012: {
    template: 'cannot reach the connector service at {origin} ({reason}); check CONNECTOR_API_URL or --base-url',
    class: 'config',
  },
  C014: {
    template: '{what} "{value}" is not a duration: write a number and a unit (ms, s, m, h, d), e.g. 30s, 10m, 2h, or 0',
    class: 'invalid',
  },
  C013: { template: 'http {method} {url}: HTTP {status}: {detail}', class: 'run' },
} satisfies Record<string, CatalogEntry>;
