/**
 * Examples are tests (issue 12 point 1). Every fenced `yaml` block in README.md and docs/*.md that is a
 * recipe, a part of one (a list of steps, a map of top-level fields) is validated; blocks marked
 * `<!-- runnable -->` are also run: a `yaml` recipe with `recipe run` (marker args after a colon), an `sh`
 * block as a bash script. They run against one embedded demo service started here (CONNECTOR_API_URL), in a
 * sandbox with a copy of recipes/ where `npx recipe` runs this checkout's CLI. How to mark examples:
 * docs/contributing.md.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecipe, STEP_KINDS } from '../../src/compile/index.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { parseSource } from '../../src/source/index.js';
import { docFiles, extractBlocks, type DocBlock } from './doc-examples.js';
import { bash, exampleEnv, makeSandbox } from './sandbox.js';

/** Reference problems a part of a recipe has by nature: it reads ids, inputs and secrets defined elsewhere. */
// P002: a part that calls a package (docs/sharing.md) has no recipe.lock beside it.
const CONTEXT_CODES = new Set(['R002', 'R003', 'R004', 'R005', 'R006', 'R016', 'R017', 'P002']);
const TOP_LEVEL = new Set([
  'version',
  'name',
  'description',
  'inputs',
  'secrets',
  'connector',
  'http',
  'retry',
  'steps',
  'outputs',
]);
/** Install lines a runnable block may start with: the test runs in a checkout that is installed and built. */
const INSTALL_LINE = /^\s*npm (ci|install)\s*(#.*)?$/;

interface Example {
  readonly block: DocBlock;
  /** recipe: checked whole; part: completed into a recipe, reference problems from outside it ignored. */
  readonly kind: 'recipe' | 'part';
  readonly text: string;
  /** Lines added above the block's first line when it was completed, and columns added by indenting. */
  readonly lineShift: number;
  readonly columnShift: number;
}

/** What a yaml block is: a recipe, a part of one, or something else (a workflow, fixtures: not checked here). */
function classify(block: DocBlock): Example | undefined {
  const value = parseSource(block.text, block.file).value;
  const isStep = (s: unknown) => isMap(s) && STEP_KINDS.some((k) => k in s);
  if (Array.isArray(value) && value.length > 0 && value.every(isStep)) {
    const indented = block.text.replace(/^(?=.)/gm, '  ');
    return {
      block,
      kind: 'part',
      text: `version: 1\nname: doc-example\nsteps:\n${indented}`,
      lineShift: 3,
      columnShift: 2,
    };
  }
  if (!isMap(value)) return undefined;
  const keys = Object.keys(value);
  if (!keys.every((k) => TOP_LEVEL.has(k) || k.startsWith('x-'))) return undefined;
  if ('version' in value && 'steps' in value)
    return { block, kind: 'recipe', text: block.text, lineShift: 0, columnShift: 0 };
  const head = `${'version' in value ? '' : 'version: 1\n'}${'name' in value ? '' : 'name: doc-example\n'}`;
  const tail = 'steps' in value ? '' : 'steps:\n  - log: doc example\n';
  return {
    block,
    kind: 'part',
    text: `${head}${block.text}${tail}`,
    lineShift: head.split('\n').length - 1,
    columnShift: 0,
  };
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const blocks = docFiles().flatMap(extractBlocks);
const examples = blocks
  .filter((b) => b.lang === 'yaml' && b.marker?.name !== 'ci-workflow')
  .flatMap((b) => classify(b) ?? []);
const runnableSh = blocks.filter((b) => b.lang === 'sh' && b.marker?.name === 'runnable');
const hasJq = (() => {
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let service: RunningService;
let sandbox: { dir: string; path: string };
let env: Record<string, string | undefined>;

beforeAll(async () => {
  service = await startService({ seed: 'demo', logLevel: 'silent' });
  sandbox = makeSandbox('recipe-doc-examples-');
  env = exampleEnv(sandbox.path, {
    CONNECTOR_API_URL: service.url,
    CONNECTOR_CLIENT_ID: service.credentials.clientId,
    CONNECTOR_CLIENT_SECRET: service.credentials.clientSecret,
  });
});
afterAll(async () => {
  await service?.close();
});

describe('doc examples', () => {
  it('finds the examples (README.md and docs/*.md)', () => {
    expect(examples.filter((e) => e.kind === 'recipe').length).toBeGreaterThanOrEqual(2);
    expect(examples.filter((e) => e.kind === 'part').length).toBeGreaterThanOrEqual(10);
    expect(runnableSh.length).toBeGreaterThanOrEqual(2);
  });

  it.each(examples.map((e) => [`${e.block.file}:${e.block.line} (${e.kind})`, e] as const))(
    'yaml %s validates',
    async (_name, example) => {
      const file = join(
        sandbox.dir,
        'recipes',
        `doc-${example.block.file.replace(/\W/g, '-')}-${example.block.line}.yaml`,
      );
      writeFileSync(file, example.text);
      const { diagnostics } = await loadRecipe(file);
      const problems = diagnostics
        .filter((d) => example.kind === 'recipe' || !CONTEXT_CODES.has(d.code))
        .map(
          (d) =>
            `${example.block.file}:${example.block.line + d.line - 1 - example.lineShift}:${d.column - example.columnShift}: ${d.code} ${d.message}`,
        );
      expect(problems).toEqual([]);
      if (example.block.marker?.name === 'runnable') {
        expect(example.kind, 'only a whole recipe can be run').toBe('recipe');
        const r = await bash(`npx recipe run ${file} ${example.block.marker.args}`, sandbox.dir, env);
        expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0);
      }
    },
    120_000,
  );

  it.each(runnableSh.map((b) => [`${b.file}:${b.line}`, b] as const))(
    'sh %s runs',
    async (_name, block) => {
      if (/\bjq\b/.test(block.text) && !hasJq) return; // jq is not installed here: nothing to run it with
      const script = block.text
        .split('\n')
        .filter((line) => !INSTALL_LINE.test(line))
        .join('\n');
      const own = makeSandbox('recipe-doc-sh-');
      const r = await bash(script, own.dir, { ...env, PATH: own.path });
      expect(r.code, `${block.file}:${block.line}\n${r.stderr}\n${r.stdout}`).toBe(0);
    },
    180_000,
  );
});
