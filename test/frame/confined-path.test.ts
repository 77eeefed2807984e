import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confinePath } from '../../src/frame/confined-path.js';

// Where a download may write (X020 otherwise): inside the working directory, after symbolic links.

function tree(): { cwd: string; outside: string } {
  const root = mkdtempSync(join(tmpdir(), 'recipe-confine-'));
  const cwd = join(root, 'work');
  const outside = join(root, 'elsewhere');
  mkdirSync(join(cwd, 'out'), { recursive: true });
  mkdirSync(outside);
  symlinkSync(outside, join(cwd, 'link-out'));
  symlinkSync(join(cwd, 'out'), join(cwd, 'link-in'));
  return { cwd, outside };
}

describe('confinePath', () => {
  it('keeps relative paths inside the working directory, existing folders or not', () => {
    const { cwd } = tree();
    expect(confinePath(cwd, 'out/a.txt')).toEqual({ path: join(cwd, 'out/a.txt') });
    expect(confinePath(cwd, 'new/deeper/a.txt')).toEqual({ path: join(cwd, 'new/deeper/a.txt') });
    expect(confinePath(cwd, 'out/../b.txt')).toEqual({ path: join(cwd, 'b.txt') });
    expect(confinePath(cwd, 'link-in/c.txt')).toEqual({ path: join(cwd, 'link-in/c.txt') });
  });

  it('refuses an absolute path, even one inside, and .. out', () => {
    const { cwd } = tree();
    expect(confinePath(cwd, join(cwd, 'out/a.txt'))).toMatchObject({ outside: 'an absolute path' });
    expect(confinePath(cwd, '/etc/passwd')).toMatchObject({ outside: 'an absolute path' });
    expect(confinePath(cwd, '../x')).toMatchObject({ outside: 'it leaves it with ..' });
    expect(confinePath(cwd, 'out/../../x')).toMatchObject({ outside: 'it leaves it with ..' });
  });

  it('refuses a path through a symbolic link that points out, also under folders not made yet', () => {
    const { cwd, outside } = tree();
    expect(confinePath(cwd, 'link-out/x.txt')).toMatchObject({ outside: expect.stringContaining(outside) });
    expect(confinePath(cwd, 'link-out/new/x.txt')).toMatchObject({ outside: expect.stringContaining(outside) });
  });
});
