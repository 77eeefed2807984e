import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const bin = new URL('../../bin/recipe.js', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('recipe --version / --help', () => {
  it('prints the package version', () => {
    const out = execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(out.trim()).toBe(pkg.version);
  });

  it('lists every command in --help', () => {
    const out = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    for (const cmd of ['validate', 'schema', 'run', 'serve']) expect(out).toMatch(new RegExp(`^\\s+${cmd}\\b`, 'm'));
    expect(out).toContain('Exit codes');
  });
});
