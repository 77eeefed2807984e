import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RecipeError } from '../errors/index.js';

/** What `npm pack` fetched: the exact version, the registry's integrity and the tarball's bytes. */
export interface PackedPackage {
  readonly version: string;
  readonly integrity: string;
  readonly tarball: Buffer;
}

/**
 * The user's own `npm` fetches `name@range` as a tarball (their registry, scopes and tokens from .npmrc);
 * `--ignore-scripts` so nothing of the package runs. `registry` overrides the configured registry.
 */
export async function npmPack(name: string, range: string, registry?: string): Promise<PackedPackage> {
  const spec = `${name}@${range}`;
  const dest = mkdtempSync(path.join(tmpdir(), 'recipe-npm-'));
  try {
    const args = ['pack', spec, '--ignore-scripts', '--json', '--pack-destination', dest];
    if (registry) args.push('--registry', registry);
    const out = await npm(args, spec, 'pack');
    const info = (JSON.parse(out) as { version: string; integrity: string; filename: string }[])[0];
    if (!info) throw new RecipeError('P020', { command: 'pack', spec, reason: 'npm printed no package' });
    return { version: info.version, integrity: info.integrity, tarball: readFileSync(path.join(dest, info.filename)) };
  } finally {
    rmSync(dest, { recursive: true, force: true });
  }
}

/**
 * What the registry says now of `name@version`: its dist.integrity (sha512-…), or null when it no longer
 * publishes that version. `--prefer-online`: npm's cache must not answer for the registry.
 */
export async function npmPublishedIntegrity(name: string, version: string, registry?: string): Promise<string | null> {
  const spec = `${name}@${version}`;
  const args = ['view', spec, 'dist.integrity', '--json', '--prefer-online'];
  if (registry) args.push('--registry', registry);
  let out: string;
  try {
    out = await npm(args, spec, 'view');
  } catch (err) {
    if (err instanceof RecipeError && /E404|404/.test(String(err.params.reason))) return null;
    throw err;
  }
  if (out.trim() === '') return null;
  const value = JSON.parse(out) as unknown;
  return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : null;
}

/** Runs the user's own npm (their .npmrc), no scripts, no audit; P020 with npm's ERR lines when it fails. */
function npm(args: readonly string[], spec: string, command: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    execFile(
      'npm',
      args,
      {
        env: {
          ...process.env,
          npm_config_ignore_scripts: 'true',
          npm_config_audit: 'false',
          npm_config_fund: 'false',
          npm_config_update_notifier: 'false',
        },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        if (err) {
          const reason =
            stderr
              .split('\n')
              .filter((l) => l.includes('ERR'))
              .slice(0, 3)
              .join(' ') || err.message;
          reject(new RecipeError('P020', { command, spec, reason }));
        } else resolve(stdout);
      },
    );
  });
}
