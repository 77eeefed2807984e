import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';

/** The folder of the case files: test/cases/<step-kind>/<name>.yaml. */
export const CASES_DIR = resolve(dirname(new URL(import.meta.url).pathname), '..');

/** The dataset every case runs on unless its file names other `fixtures` or a `seed`. */
export const DEFAULT_FIXTURES = join(CASES_DIR, 'data.fixtures.yaml');

/** Expectations `recipe test` checks itself (docs/testing.md, Expectations). */
const TEST_EXPECT = ['status', 'error', 'outputs', 'writes', 'writes_order', 'requests'] as const;

/** Expectations only the `recipe run --json` route can check: the run report, the log, files, the scripted server. */
const RUN_EXPECT = [
  'exit_code',
  'report',
  'logs',
  'log_count',
  'not_in_output',
  'received',
  'files',
  'absent_files',
] as const;

/** Case fields `recipe test` takes as they are (schemas/recipe-test.schema.json, $defs/case). */
const TEST_CASE_FIELDS = ['name', 'description', 'inputs', 'secrets', 'now', 'after', 'mock', 'timeout_ms', 'expect'];

/** One answer of the scripted HTTP server (http steps): a status, headers and a body (text, or JSON). */
export interface ServerAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Never answer (the request hangs until the client gives up). */
  hang?: boolean;
}

/** A route of the scripted server: the requests it matches (path without query, method) and its answers in turn. */
export interface ServerRoute {
  path?: string;
  method?: string;
  respond: ServerAnswer | ServerAnswer[];
}

export interface CaseSpec {
  name: string;
  description?: string;
  inputs?: Record<string, unknown>;
  secrets?: Record<string, string>;
  now?: string;
  after?: string;
  mock?: unknown[];
  timeout_ms?: number;
  /** Extra `recipe run` flags (run route only), e.g. [--dry-run]. */
  args?: string[];
  /** A scripted HTTP server for http steps (run route only); @SERVER@ in the recipe is its base URL. */
  server?: ServerRoute[];
  expect: Record<string, unknown>;
}

/** One case file: a recipe (text, kept byte for byte so lines and columns are as written) and its cases. */
export interface CaseFile {
  /** Path relative to test/cases, e.g. foreach/concurrency.yaml. */
  id: string;
  path: string;
  /** The step kind: the folder the file is in. */
  kind: string;
  description: string;
  recipe: string;
  files: Record<string, string>;
  fixtures?: string;
  seed?: 'demo' | 'none';
  now?: string;
  inputs?: Record<string, unknown>;
  secrets?: Record<string, string>;
  cases: CaseSpec[];
}

/** A case and the way it runs: `test` (batched through `recipe test`) or `run` (its own `recipe run --json`). */
export interface RoutedCase {
  file: CaseFile;
  spec: CaseSpec;
  route: 'test' | 'run';
}

const FILE_KEYS = ['description', 'recipe', 'files', 'fixtures', 'seed', 'now', 'inputs', 'secrets', 'cases'];

/** Reads and checks one case file; throws naming the file and the problem. */
export function loadCaseFile(path: string): CaseFile {
  const id = relative(CASES_DIR, path);
  const fail = (msg: string): never => {
    throw new Error(`${id}: ${msg}`);
  };
  const doc = parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  if (!doc || typeof doc !== 'object') fail('not a map');
  for (const k of Object.keys(doc))
    if (!FILE_KEYS.includes(k)) fail(`unknown key "${k}"; allowed: ${FILE_KEYS.join(', ')}`);
  if (typeof doc.description !== 'string') fail('`description` (text) is required');
  if (typeof doc.recipe !== 'string') fail('`recipe` (the recipe as a block of text) is required');
  if (doc.fixtures !== undefined && doc.seed !== undefined) fail('give `fixtures` or `seed`, not both');
  if (!Array.isArray(doc.cases) || doc.cases.length === 0) fail('`cases` must list at least one case');
  const cases = doc.cases as CaseSpec[];
  const names = new Set<string>();
  for (const c of cases) {
    if (typeof c.name !== 'string') fail('every case needs a `name`');
    if (names.has(c.name)) fail(`two cases are named "${c.name}"`);
    names.add(c.name);
    if (!c.expect || Object.keys(c.expect).length === 0) fail(`case "${c.name}" has no expectation`);
    for (const k of Object.keys(c.expect))
      if (!(TEST_EXPECT as readonly string[]).includes(k) && !(RUN_EXPECT as readonly string[]).includes(k))
        fail(`case "${c.name}": unknown expectation "${k}"`);
    for (const k of Object.keys(c))
      if (!TEST_CASE_FIELDS.includes(k) && k !== 'args' && k !== 'server') fail(`case "${c.name}": unknown key "${k}"`);
  }
  return {
    id,
    path,
    kind: id.split('/')[0]!,
    description: doc.description as string,
    recipe: doc.recipe as string,
    files: (doc.files as Record<string, string> | undefined) ?? {},
    fixtures:
      typeof doc.fixtures === 'string'
        ? resolve(dirname(path), doc.fixtures)
        : doc.seed === undefined
          ? DEFAULT_FIXTURES
          : undefined,
    seed: doc.seed as CaseFile['seed'],
    now: doc.now as string | undefined,
    inputs: doc.inputs as Record<string, unknown> | undefined,
    secrets: doc.secrets as Record<string, string> | undefined,
    cases,
  };
}

/** Which route a case takes; throws when it mixes what only one route can do with what only the other can. */
export function routeOf(file: CaseFile, spec: CaseSpec): 'test' | 'run' {
  const runOnly = [
    ...(spec.args ? ['args'] : []),
    ...(spec.server ? ['server'] : []),
    ...Object.keys(spec.expect).filter((k) => (RUN_EXPECT as readonly string[]).includes(k)),
  ];
  if (runOnly.length === 0) return 'test';
  const testOnly = [
    ...(spec.mock ? ['mock'] : []),
    ...(spec.after ? ['after'] : []),
    ...Object.keys(spec.expect).filter((k) => k === 'writes' || k === 'writes_order'),
  ];
  if (testOnly.length)
    throw new Error(
      `${file.id} "${spec.name}": ${runOnly.join(', ')} need \`recipe run --json\`, ${testOnly.join(', ')} need \`recipe test\`; split the case`,
    );
  return 'run';
}

/** Every case file under test/cases/<kind>/, sorted. */
export function discoverCaseFiles(): CaseFile[] {
  const out: CaseFile[] = [];
  for (const kind of readdirSync(CASES_DIR, { withFileTypes: true })) {
    if (!kind.isDirectory() || kind.name === 'harness') continue;
    for (const f of readdirSync(join(CASES_DIR, kind.name)).sort())
      if (f.endsWith('.yaml') && !f.endsWith('.fixtures.yaml')) out.push(loadCaseFile(join(CASES_DIR, kind.name, f)));
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/** Only the fields `recipe test` knows, for the generated *.test.yaml. */
export function testCaseFields(spec: CaseSpec): Record<string, unknown> {
  return Object.fromEntries(Object.entries(spec).filter(([k]) => TEST_CASE_FIELDS.includes(k)));
}
