/** `recipe validate` through the real CLI (node bin/recipe.js, built into dist/ by `npm run build`). */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/recipe.js');

function recipe(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function workdir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'validate-cli-'));
  cpSync(path.join(root, 'test/golden/valid'), path.join(dir, 'good'), { recursive: true });
  writeFileSync(
    path.join(dir, 'bad.yaml'),
    'version: 1\nname: bad\nsteps:\n  - exectue: { entity: deals, action: list }\n  - log: "${ $nope }"\n',
  );
  writeFileSync(path.join(dir, 'also-bad.yml'), 'version: 1\nname: x\nsteps:\n  - log: "${ 1 + }"\n');
  return dir;
}

describe('recipe validate', () => {
  it('exits 0 for valid files and folders, with a summary on stderr', () => {
    const dir = workdir();
    const r = recipe(['validate', 'good'], dir);
    expect(r.code).toBe(0);
    // the example declares a secret it never reads: a warning, which does not fail validation
    expect(r.stdout).toBe(
      `${path.join('good', 'issue-example.yaml')}:8:11: W005 secret "CRM_TOKEN" is declared but never read; remove it (a run stops when its environment variable is not set)\n`,
    );
    expect(r.stderr).toMatch(/^\d+ files?, 0 problems, 1 warning\n$/);
  });

  it('prints FILE:LINE:COL: CODE message per problem and exits 2', () => {
    const dir = workdir();
    const r = recipe(['validate', 'bad.yaml', 'also-bad.yml', 'good'], dir);
    expect(r.code).toBe(2);
    const lines = r.stdout
      .trim()
      .split('\n')
      .filter((l) => !/: W\d+ /.test(l));
    // every problem of a file at once: the structural one and the unknown variable after it
    expect(lines.map((l) => l.split(' ')[0] + ' ' + l.split(' ')[1])).toEqual([
      'bad.yaml:4:5: S002',
      'bad.yaml:5:14: R002',
      'also-bad.yml:4:18: E001',
    ]);
    expect(r.stderr).toMatch(/files, 3 problems, 1 warning\n$/);
  });

  it('walks folders recursively for *.yaml and *.yml', () => {
    const dir = workdir();
    const r = recipe(['validate', '.'], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('bad.yaml:4:5: S002');
    expect(r.stdout).toContain('also-bad.yml:4:18: E001');
    // the invalid case files are at the top, the valid ones (with a nested lib/) walked below
    expect(r.stderr).toMatch(/^\d+ files, 3 problems/);
  });

  it('reports an unreadable file as Y001 and exits 2', () => {
    const dir = workdir();
    const r = recipe(['validate', 'missing.yaml'], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('missing.yaml:1:1: Y001 cannot read missing.yaml: no such file\n');
  });

  it('gives JSON for tools with --format json', () => {
    const dir = workdir();
    const r = recipe(['validate', '--format', 'json', 'bad.yaml', 'good/issue-example.yaml'], dir);
    expect(r.code).toBe(2);
    const results = JSON.parse(r.stdout) as {
      file: string;
      valid: boolean;
      diagnostics: { code: string; line: number; column: number }[];
    }[];
    expect(results.map((x) => [x.file, x.valid])).toEqual([
      ['bad.yaml', false],
      [path.join('good', 'issue-example.yaml'), true],
    ]);
    expect(results[0]?.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['S002', 4, 5],
      ['R002', 5, 14],
    ]);
  });

  it('refuses a bad --format and a missing path as usage errors', () => {
    const dir = workdir();
    expect(recipe(['validate', '--format', 'xml', 'good'], dir).code).not.toBe(0);
    expect(recipe(['validate'], dir).code).not.toBe(0);
  });

  it('has --help with examples', () => {
    const r = recipe(['validate', '--help'], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('--format');
  });
});
