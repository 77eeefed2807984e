import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * schemas/connectors/<name>/, found by walking up from this module: the same from src/, dist/, the CLI's
 * bundle (dist/bin/, where a module's depth is not its source's) and an installed package.
 */
export function connectorSchemaDir(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'schemas', 'connectors', name);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`schemas/connectors/${name} not found above the connector modules`);
    dir = parent;
  }
}
