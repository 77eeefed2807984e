import { spawn } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';

const repo = new URL('../../', import.meta.url).pathname;
const bin = join(repo, 'bin/recipe.js');

/** The secret the failing run reads; it must appear on no page and in no API answer. */
export const SECRET = 'sk-live-console-7f3a9c2e51';

/** What `recipe CMD` printed and its exit code. */
export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `recipe ARGS` in `cwd` (dist/, built by `npm run build`), with a clean environment plus `env`. */
export function recipeCli(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<CliResult> {
  const clean: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const k of Object.keys(clean)) if (/^(CONNECTOR_|RECIPE_|OTEL_)/.test(k)) delete clean[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, bin, ...args], {
      cwd,
      env: { ...clean, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The runs makeJournal made, by what they show. */
export interface MadeRuns {
  /** ticket-triage: succeeded, a foreach with two writes per ticket. */
  readonly triage: string;
  /** stale-deals-follow-up --dry-run: succeeded, its writes not sent. */
  readonly dryRun: string;
  /** contact-notes: failed at line 34, then redriven once by `recipe resume` (fails again). */
  readonly failed: string;
}

/**
 * A journal made by real runs of the CLI in `dir` (which gets recipes/ and .recipe/runs.db): two shipped
 * recipes on the test fixtures, and contact-notes (test/console/fixtures), which fails and is resumed.
 * The embedded service keeps its data in svc.db so that the resume sees what the run wrote.
 */
export async function makeJournal(dir: string): Promise<MadeRuns> {
  cpSync(join(repo, 'recipes'), join(dir, 'recipes'), { recursive: true });
  cpSync(join(repo, 'test/console/fixtures/contact-notes.yaml'), join(dir, 'recipes/contact-notes.yaml'));
  const common = ['--db', 'svc.db', '--journal', '.recipe/runs.db', '--json'];
  const fixtures = ['--fixtures', 'recipes/crm-small.fixtures.yaml'];
  const run = async (args: string[], expected: number, env: Record<string, string> = {}): Promise<string> => {
    const r = await recipeCli(args, dir, env);
    if (r.code !== expected) throw new Error(`recipe ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return (JSON.parse(r.stdout) as { run_id: string }).run_id;
  };
  const triage = await run(['run', 'recipes/ticket-triage.yaml', ...fixtures, ...common], 0);
  const dryRun = await run(['run', 'recipes/stale-deals-follow-up.yaml', '--dry-run', ...common], 0);
  const env = { NOTES_API_KEY: SECRET };
  const failed = await run(['run', 'recipes/contact-notes.yaml', '-i', `requester=${SECRET}`, ...common], 1, env);
  // The journal kept `requester` masked (it held the secret): the resume is given it again.
  const again = ['-i', `requester=${SECRET}`];
  await run(['resume', failed, ...again, '--db', 'svc.db', '--journal', '.recipe/runs.db', '--json'], 1, env);
  return { triage, dryRun, failed };
}
