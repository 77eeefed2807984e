/** `recipe schema` through the real CLI. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('recipe schema', () => {
  it('prints schemas/recipe.schema.json', () => {
    const r = spawnSync(process.execPath, [path.join(root, 'bin/recipe.js'), 'schema'], { cwd: '/', encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      JSON.parse(readFileSync(path.join(root, 'schemas/recipe.schema.json'), 'utf8')),
    );
  });

  it('--connectors prints schemas/recipe.connectors.schema.json (the companion for editors)', () => {
    const r = spawnSync(process.execPath, [path.join(root, 'bin/recipe.js'), 'schema', '--connectors'], {
      cwd: '/',
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      JSON.parse(readFileSync(path.join(root, 'schemas/recipe.connectors.schema.json'), 'utf8')),
    );
  });
});
