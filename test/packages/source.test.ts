import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashDir, intersectGrants, parseCallSource, packageKey, formatLock } from '../../src/packages/index.js';
import { tempDir } from './git-repos.js';

describe('call sources', () => {
  it.each([
    ['crm/count.yaml', { kind: 'relative', path: 'crm/count.yaml' }],
    [
      'git:https://example.com/acme/recipes.git//crm/count-by-stage.yaml@v1.4.0',
      { kind: 'git', url: 'https://example.com/acme/recipes.git', path: 'crm/count-by-stage.yaml', ref: 'v1.4.0' },
    ],
    [
      'git:ssh://git@example.com/acme/recipes.git//a.yaml@^1.4',
      { kind: 'git', url: 'ssh://git@example.com/acme/recipes.git', path: 'a.yaml', ref: '^1.4' },
    ],
    [
      'npm:@acme/crm-recipes@^1.4/count-by-stage.yaml',
      { kind: 'npm', name: '@acme/crm-recipes', range: '^1.4', path: 'count-by-stage.yaml' },
    ],
    ['npm:crm-recipes@1.4.2/a/b.yaml', { kind: 'npm', name: 'crm-recipes', range: '1.4.2', path: 'a/b.yaml' }],
  ])('reads %s', (text, expected) => {
    expect(parseCallSource(text)).toEqual(expected);
  });

  it('reads the object forms', () => {
    expect(parseCallSource({ git: 'https://example.com/r.git', ref: 'main', path: 'x.yaml' })).toEqual({
      kind: 'git',
      url: 'https://example.com/r.git',
      ref: 'main',
      path: 'x.yaml',
    });
    expect(parseCallSource({ npm: '@acme/r', version: '^2', path: 'x.yaml' })).toMatchObject({
      kind: 'npm',
      range: '^2',
    });
  });

  it.each([
    ['git:https://example.com/r.git@v1', /two slashes/],
    ['git:https://example.com/r.git//x.yaml', /@REF/],
    ['git:https://example.com/r.git//../x.yaml@v1', /inside the package/],
    ['npm:@acme/r/x.yaml', /npm:NAME@RANGE\/PATH/],
    ['git:ext::sh -c evil//x.yaml@v1', /not a git URL/],
    ['npm:@acme/r@file:/home/me/.ssh/x.yaml', /not a version, semver range or dist-tag/],
  ])('refuses %s', (text, problem) => {
    expect(parseCallSource(text)).toEqual({ problem: expect.stringMatching(problem) });
  });

  it('keys a package by source and requested ref', () => {
    const s = parseCallSource('git:https://example.com/r.git//x.yaml@v1');
    expect(packageKey(s as never)).toBe('git:https://example.com/r.git@v1');
  });
});

describe('the h1 dirhash', () => {
  it("is Go's Hash1 over regular files (symbolic links are not part of a package)", () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'x.yaml'), 'x\n');
    writeFileSync(join(dir, 'b.yaml'), 'b\n');
    // sha256("b\n") and sha256("x\n"), lines sorted by path, as golang.org/x/mod/sumdb/dirhash computes it.
    const expected = 'h1:' + h1Of('a/x.yaml', 'x\n', 'b.yaml', 'b\n');
    expect(hashDir(dir)).toBe(expected);
    symlinkSync('/etc/passwd', join(dir, 'link.yaml'));
    expect(hashDir(dir)).toBe(expected);
  });
});

describe('grants down a chain', () => {
  it('keep only what every level grants, and the smallest max_writes', () => {
    const a = {
      writes: [{ entity: 'deals', actions: ['update'] }],
      http: ['hooks.slack.com'],
      secrets: {},
      maxWrites: 10,
    };
    const b = {
      writes: [
        { entity: 'deals', actions: ['update', 'create'] },
        { entity: 'notes', actions: ['create'] },
      ],
      http: ['hooks.slack.com', 'evil.example'],
      secrets: { HOOK: 'TEAM_HOOK' },
      maxWrites: 500,
    };
    expect(intersectGrants(a, b)).toEqual({
      writes: [{ entity: 'deals', actions: ['update'] }],
      http: ['hooks.slack.com'],
      secrets: { HOOK: 'TEAM_HOOK' },
      maxWrites: 10,
    });
  });
});

describe('recipe.lock', () => {
  it('is written with sorted keys, whatever the order they were made in', () => {
    const text = formatLock({
      version: 1,
      packages: {
        z: { hash: 'h1:z', source: 'git', calls: [], footprint: { writes: [], reads: [], secrets: [], http: [] } },
      },
    });
    expect(text.indexOf('"calls"')).toBeLessThan(text.indexOf('"footprint"'));
    expect(text.indexOf('"reads"')).toBeLessThan(text.indexOf('"writes"'));
    expect(text.endsWith('}\n')).toBe(true);
  });
});

/** Go's Hash1 of (path, content) pairs, computed independently of src/. */
function h1Of(...pairs: string[]): string {
  const h = createHash('sha256');
  for (let i = 0; i < pairs.length; i += 2)
    h.update(
      `${createHash('sha256')
        .update(pairs[i + 1]!)
        .digest('hex')}  ${pairs[i]}\n`,
    );
  return h.digest('base64');
}
