import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

// download `to` stays inside the working directory (X020 otherwise, before the download is sent): here the
// case the data cases cannot build, a folder inside that is a symbolic link to one outside.

const RECIPE = `version: 1
name: through-link
connector: { definition: Files }
steps:
  - id: files
    paginate: { entity: files, action: list, params: { limit: 50 } }
  - id: readme
    transform: "\${ $files[name = 'readme.txt'][0] }"
  - id: got
    download: { entity: files, params: { fileId: "\${ $readme.id }" }, to: "reports/readme.txt" }
`;

describe('download through a symbolic link', () => {
  it('is refused with X020 at the step and writes nothing outside', async () => {
    const root = mkdtempSync(join(tmpdir(), 'recipe-confine-cli-'));
    const work = join(root, 'work');
    const outside = join(root, 'outside');
    mkdirSync(work);
    mkdirSync(outside);
    symlinkSync(outside, join(work, 'reports'));
    writeFileSync(join(work, 'through-link.yaml'), RECIPE);
    const r = await runCli(['run', 'through-link.yaml', '--db', ':memory:', '--json', '--no-journal'], { cwd: work });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { error: { code: string; line: number }; requests: number };
    expect(report.error).toMatchObject({ code: 'X020', line: 9 });
    // The list was read; the download was never sent.
    expect(report.requests).toBe(1);
    expect(readdirSync(outside)).toEqual([]);
  });
});
