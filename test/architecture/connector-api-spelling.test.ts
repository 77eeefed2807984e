import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './import-graph.js';

// House rule 14: the connector API's paths are spelled in one place, src/client/routes.ts; everything else
// asks the client's index for them (executePath, inspectPath, routeTemplateOf, ...). The service spells
// them too: it is the API.

/** Text that spells a path of the connector API. */
const API_PATH = /\/api\/v1\/|integrations\//;

/**
 * Files outside src/client/ and src/service/ allowed to spell a path, each with why. The service's half of
 * the error catalog holds the service's own messages (it sends them); errors/ sits below the client.
 */
const ALLOWED = new Set(['errors/catalog-service.ts']);

/** The files of src/ outside the client and the service that spell a path of the connector API. */
function spellers(files: readonly string[], read: (file: string) => string): string[] {
  return files
    .filter((f) => !f.startsWith('client/') && !f.startsWith('service/') && !ALLOWED.has(f))
    .filter((f) => API_PATH.test(read(f)));
}

describe('the connector API is spelled in src/client/ only', () => {
  it('no file outside src/client/ and src/service/ contains a connector API path', () => {
    expect(spellers(sourceFiles(), (f) => readFileSync(join(SRC, f), 'utf8'))).toEqual([]);
  });

  it('the check finds a path spelled elsewhere', () => {
    const texts: Record<string, string> = {
      'calls/x.ts': 'const p = `/api/v1/integrations/connectors/${id}/execute`;',
      'console/y.ts': "getJson('api/v1/integrations/connectors', {})",
      'client/routes.ts': "const API = '/api/v1';",
      'service/routes/execute.ts': "'/api/v1/integrations/connectors/:id/execute'",
    };
    expect(spellers(Object.keys(texts), (f) => texts[f] ?? '')).toEqual(['calls/x.ts', 'console/y.ts']);
  });
});
