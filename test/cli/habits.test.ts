import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

/** CLI habits users expect (issue 12 point 5), each through the real CLI as a child process. */
const fixtures = new URL('./fixtures/crm.yaml', import.meta.url).pathname;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-habits-'));
});

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const secretRecipe = `version: 1
name: secret-echo
secrets: [MY_TOKEN]
steps:
  - log: "token is \${ $secrets.MY_TOKEN }"
outputs:
  length: "\${ $length($secrets.MY_TOKEN) }"
`;

describe('usage errors exit 2', () => {
  it.each([
    [['run', '--bogus', 'x.yaml'], /unknown option '--bogus'/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['run', '--now', 'yesterday', 'x.yaml'], /--now <iso>.*'yesterday' is invalid/],
    [['completion', 'tcsh'], /Allowed choices are bash, zsh, fish/],
    [['run'], /missing required argument 'file'/],
    [['run', 'x.yaml', '--base-url', 'http://127.0.0.1:1', '--fixtures', 'f.yaml'], /cannot be used with option/],
  ])('recipe %j', async (args, message) => {
    const r = await runCli(args, { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('help and --version still exit 0', async () => {
    expect((await runCli(['--help'])).code).toBe(0);
    expect((await runCli(['run', '--help'])).code).toBe(0);
    expect((await runCli(['--version'])).code).toBe(0);
  });
});

describe('a closed stdout (recipe run ... | head)', () => {
  it('ends quietly: no EPIPE, no stack trace, the exit code of the run', async () => {
    const r = await runCli(['run', join(process.cwd(), 'recipes/pipeline-report.yaml'), '--fixtures', fixtures], {
      cwd: dir,
      onStart: (child) => child.stdout?.destroy(), // the reader is gone before the outputs are written
    });
    expect(r.stderr).not.toMatch(/EPIPE|at .*\.js:\d+/);
    expect(r.code).toBe(0);
  });
});

describe('.env and --env-file', () => {
  it('reads .env from the working directory, says so on stderr (names only) and masks the secret', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'recipe-dotenv-'));
    writeFileSync(join(cwd, '.env'), '# local settings\nMY_TOKEN="tok-from-dotenv-123"\nexport OTHER=1\n');
    const r = await runCli(['run', write('secret.yaml', secretRecipe), '--fixtures', fixtures], { cwd });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^environment: \.env \(MY_TOKEN, OTHER\)$/m);
    expect(r.stderr).toContain('token is ***');
    expect(r.stdout).toContain('length: 19');
    expect(r.stdout + r.stderr).not.toContain('tok-from-dotenv-123');
  });

  it('the environment wins over the file; --no-env-file ignores .env; --env-file FILE reads that file', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'recipe-dotenv-'));
    writeFileSync(join(cwd, '.env'), 'MY_TOKEN=from-dotenv\n');
    writeFileSync(join(cwd, 'ci.env'), 'MY_TOKEN=from-ci-env-file\n');
    const file = write('secret2.yaml', secretRecipe);
    const kept = await runCli(['run', file, '--fixtures', fixtures], { cwd, env: { MY_TOKEN: 'from-the-env' } });
    expect(kept.stdout).toContain('length: 12');
    expect(kept.stderr).toContain('already set, kept: MY_TOKEN');
    const off = await runCli(['run', file, '--fixtures', fixtures, '--no-env-file'], { cwd });
    expect(off.code).toBe(3);
    expect(off.stderr).toContain('X013');
    const explicit = await runCli(['run', file, '--fixtures', fixtures, '--env-file', 'ci.env'], { cwd });
    expect(explicit.code).toBe(0);
    expect(explicit.stdout).toContain('length: 16');
    expect(explicit.stderr).toMatch(/^environment: ci\.env \(MY_TOKEN\)$/m);
    const missing = await runCli(['run', file, '--fixtures', fixtures, '--env-file', 'nope.env'], { cwd });
    // Node 20+ itself checks every `--env-file` on its command line, even after the script (nodejs/node#54232),
    // and stops with exit 9 before the CLI starts; where it does not, the CLI's own check says C001 (exit 3).
    expect([3, 9]).toContain(missing.code);
    expect(missing.stderr).toContain('nope.env');
  });

  it('CONNECTOR_* from .env points the run at a service (no embedded service)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'recipe-dotenv-'));
    writeFileSync(
      join(cwd, '.env'),
      'CONNECTOR_API_URL=http://127.0.0.1:9\nCONNECTOR_CLIENT_ID=x\nCONNECTOR_CLIENT_SECRET=y-secret\n',
    );
    const r = await runCli(['run', join(process.cwd(), 'recipes/pipeline-report.yaml')], { cwd });
    expect(r.code).toBe(3); // nothing listens on port 9: the token exchange cannot reach it
    expect(r.stderr).toContain('C012');
    expect(r.stderr).not.toContain('embedded service');
  });
});

describe('--inputs FILE', () => {
  const recipe = `version: 1
name: inputs
inputs:
  n: { type: integer, required: true }
  tags: { type: array, default: [] }
steps:
  - log: "n=\${ $inputs.n }"
outputs:
  n: "\${ $inputs.n }"
  tags: "\${ $inputs.tags }"
`;

  it('takes YAML as well as JSON, typed values kept', async () => {
    const file = write('inputs.yaml', recipe);
    const yaml = await runCli([
      'run',
      file,
      '--fixtures',
      fixtures,
      '--json',
      '--inputs',
      write('in.yaml', 'n: 5\ntags: [a, b]\n'),
    ]);
    expect(yaml.code).toBe(0);
    expect(JSON.parse(yaml.stdout).outputs).toEqual({ n: 5, tags: ['a', 'b'] });
    const json = await runCli([
      'run',
      file,
      '--fixtures',
      fixtures,
      '--json',
      '--inputs',
      write('in.json', '{"n": 6}'),
    ]);
    expect(JSON.parse(json.stdout).outputs).toEqual({ n: 6, tags: [] });
  });

  it('a broken inputs file is invalid (exit 2) with its line and column', async () => {
    const file = write('inputs2.yaml', recipe);
    const r = await runCli(['run', file, '--fixtures', fixtures, '--inputs', write('bad.yaml', 'n: 5\nn: 6\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml:2:1: Y003 /);
    const list = await runCli(['run', file, '--fixtures', fixtures, '--inputs', write('list.yaml', '- 1\n')]);
    expect(list.code).toBe(2);
    expect(list.stderr).toMatch(/list\.yaml:1:1: I001 /);
  });
});

describe('recipe completion', () => {
  it('bash: completes commands, options and option values', async () => {
    const r = await runCli(['completion', 'bash']);
    expect(r.code).toBe(0);
    const complete = (...words: string[]): string[] => {
      const script = `${r.stdout}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_recipe_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
      return execFileSync('bash', ['-c', script], { encoding: 'utf8' }).split('\n').filter(Boolean);
    };
    expect(complete('recipe', 'va')).toEqual(['validate']);
    expect(complete('recipe', 'run', '--dr')).toEqual(['--dry-run', '--drop-read-answers']);
    expect(complete('recipe', 'run', '--fi')).toEqual(['--fixtures']);
    expect(complete('recipe', 'validate', '--format', '')).toEqual(['text', 'json', 'github']);
    expect(complete('recipe', 'completion', 'z')).toEqual(['zsh']);
  });

  it('zsh and fish: scripts that name every command and option', async () => {
    const zsh = await runCli(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^#compdef recipe/);
    expect(zsh.stdout).toContain("'run:run a recipe");
    expect(zsh.stdout).toContain("'--fixtures[");
    expect(zsh.stdout).toContain('compdef _recipe recipe');
    const fish = await runCli(['completion', 'fish']);
    expect(fish.stdout).toContain('complete -c recipe -n __fish_use_subcommand -a run');
    expect(fish.stdout).toContain(
      "complete -c recipe -n '__fish_seen_subcommand_from validate' -l format -x -a 'text json github'",
    );
  });
});

describe('-q and colour', () => {
  it('-q silences the embedded-service line and progress: only the outputs', async () => {
    const r = await runCli(['run', join(process.cwd(), 'recipes/pipeline-report.yaml'), '--fixtures', fixtures, '-q']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('open_deals: 2');
  });

  it('FORCE_COLOR colours the step lines even into a pipe (and wins over NO_COLOR); FORCE_COLOR=0 does not', async () => {
    const args = ['run', join(process.cwd(), 'recipes/pipeline-report.yaml'), '--fixtures', fixtures];
    const forced = await runCli(args, { env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(forced.stderr).toContain('\x1b[32m✓\x1b[0m deals');
    const off = await runCli(args, { env: { FORCE_COLOR: '0' } });
    expect(off.stderr).not.toContain('\x1b[');
    const plain = await runCli(args);
    expect(plain.stderr).not.toContain('\x1b[');
  });
});
