import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ConnectorCatalog } from '../catalog/index.js';
import { resolveInputs, type Plan } from '../compile/index.js';
import type { Diagnostic } from '../errors/index.js';
import { checkRecipe, type CheckedRecipe, type CheckResult } from '../run/index.js';
import { escapePointer } from '../expr/index.js';
import { validateTestDocument } from '../schema/index.js';
import { didYouMean, loadSource, sortDiagnostics } from '../source/index.js';
import { readCassette } from './cassette.js';
import { Checker } from './checker.js';
import { count } from './match.js';
import { compileMockRule } from './mock-rules.js';
import type { CaseExpectations, DataSource, TestCase, TestFile } from './test-file.js';

/** How test files are loaded. */
export interface LoadTestOptions {
  /** True under --record: a named cassette need not exist yet. */
  readonly recording?: boolean;
  /** Recipes already checked, by absolute path (several test files may test one recipe). */
  readonly plans?: Map<string, Promise<CheckResult>>;
  /** The catalog tested recipes' connector calls are checked against, as a run checks them (validate's checks). */
  readonly catalog?: ConnectorCatalog;
  /** Warnings of the tested recipe make it invalid (--strict). */
  readonly strict?: boolean;
}

/** The test file when it is valid, and every problem found in it otherwise. */
export interface LoadedTestFile {
  readonly file?: TestFile;
  readonly diagnostics: Diagnostic[];
}

type Raw = Record<string, unknown>;

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Loads a *.test.yaml file: YAML with positions, its schema, the recipe it tests, its data source, and every
 * case (names, `after`, inputs against the recipe, mocks, cassette, expectations with their predicates).
 * Collects every problem; gives the TestFile only when there is none.
 */
export async function loadTestFile(file: string, opts: LoadTestOptions = {}): Promise<LoadedTestFile> {
  const absolute = path.resolve(file);
  const display = displayNameOf(absolute);
  const source = await loadSource(absolute, display);
  const diagnostics = [...source.diagnostics];
  if (source.value === undefined) return { diagnostics: sortDiagnostics(diagnostics) };
  const schemaProblems = await validateTestDocument(source.value, source.locator, display);
  if (schemaProblems.length > 0) return { diagnostics: sortDiagnostics([...diagnostics, ...schemaProblems]) };
  const doc = source.value as Raw;
  const dir = path.dirname(absolute);
  const ctx = new Checker(display, source.locator, diagnostics);

  const checked = await loadTestedRecipe(path.resolve(dir, String(doc.recipe)), ctx, opts);
  const plan = checked?.plan;
  const data = dataSource(doc, dir, ctx);
  const cases = plan ? buildCases(doc, plan, dir, ctx, opts) : [];
  if (diagnostics.length > 0 || !checked || !plan || !data) return { diagnostics: sortDiagnostics(diagnostics) };
  const dataAt = ctx.at(doc.fixtures !== undefined ? '/fixtures' : doc.seed !== undefined ? '/seed' : '');
  return {
    file: { path: absolute, display, text: source.text, recipe: plan, checked, data, dataAt, cases },
    diagnostics: [],
  };
}

async function loadTestedRecipe(
  recipe: string,
  ctx: Checker,
  opts: LoadTestOptions,
): Promise<CheckedRecipe | undefined> {
  const shown = displayNameOf(recipe);
  if (!existsSync(recipe)) {
    ctx.report('T001', { path: shown }, '/recipe');
    return undefined;
  }
  let loading = opts.plans?.get(recipe);
  if (!loading) {
    loading = checkRecipe(recipe, {
      displayName: shown,
      ...(opts.catalog ? { catalog: opts.catalog } : {}),
      ...(opts.strict !== undefined ? { strict: opts.strict } : {}),
    });
    opts.plans?.set(recipe, loading);
  }
  const { recipe: checked, diagnostics } = await loading;
  if (checked) return checked;
  ctx.report('T002', { path: shown, problems: count(diagnostics.length, 'problem') }, '/recipe');
  ctx.diagnostics.push(...diagnostics);
  return undefined;
}

function dataSource(doc: Raw, dir: string, ctx: Checker): DataSource | undefined {
  if (doc.fixtures !== undefined && doc.seed !== undefined) {
    ctx.report('T004', {}, '/seed');
    return undefined;
  }
  if (typeof doc.fixtures === 'string') {
    const fixtures = path.resolve(dir, doc.fixtures);
    if (!existsSync(fixtures)) {
      ctx.report('T003', { path: doc.fixtures, reason: 'no such file' }, '/fixtures');
      return undefined;
    }
    return { kind: 'fixtures', path: fixtures };
  }
  const seed = doc.seed === 'demo' ? 'demo' : 'none';
  return { kind: 'seed', seed, ...(typeof doc.seed_size === 'number' ? { size: doc.seed_size } : {}) };
}

function buildCases(doc: Raw, plan: Plan, dir: string, ctx: Checker, opts: LoadTestOptions): TestCase[] {
  const firstAt = new Map<string, number>();
  const defaults = {
    inputs: (doc.inputs ?? {}) as Raw,
    secrets: (doc.secrets ?? {}) as Record<string, string>,
    now: typeof doc.now === 'string' ? doc.now : undefined,
    network: doc.network === 'allow' ? ('allow' as const) : ('off' as const),
  };
  return (doc.cases as Raw[]).map((raw, index) => {
    const p = `/cases/${index}`;
    const name = String(raw.name);
    const seen = firstAt.get(name);
    if (seen !== undefined) ctx.report('T005', { name, line: seen }, `${p}/name`);
    else firstAt.set(name, ctx.at(`${p}/name`).line);
    const after = typeof raw.after === 'string' ? raw.after : undefined;
    if (after !== undefined && (!firstAt.has(after) || after === name))
      ctx.report(
        'T006',
        {
          name: after,
          hint: didYouMean(
            after,
            [...firstAt.keys()].filter((n) => n !== name),
          ),
        },
        `${p}/after`,
      );
    const inputs = { ...defaults.inputs, ...((raw.inputs ?? {}) as Raw) };
    checkInputs(plan, inputs, raw.inputs === undefined ? '/inputs' : `${p}/inputs`, ctx);
    const cassette = typeof raw.cassette === 'string' ? raw.cassette : undefined;
    const cassettePath = cassette === undefined ? undefined : path.resolve(dir, cassette);
    if (cassettePath && !opts.recording) {
      if (!existsSync(cassettePath)) ctx.report('T007', { path: cassette }, `${p}/cassette`);
      else {
        try {
          readCassette(cassettePath);
        } catch (err) {
          ctx.report('T008', { path: cassette, reason: (err as Error).message }, `${p}/cassette`);
        }
      }
    }
    if (cassette !== undefined && raw.mock !== undefined) ctx.report('T011', { field: 'mock' }, `${p}/mock`);
    if (cassette !== undefined && after !== undefined) ctx.report('T011', { field: 'after' }, `${p}/after`);
    const now = typeof raw.now === 'string' ? raw.now : defaults.now;
    const skip = raw.skip === true ? 'skip: true' : typeof raw.skip === 'string' ? raw.skip : undefined;
    return {
      index,
      name,
      at: ctx.at(p),
      inputs,
      secrets: { ...defaults.secrets, ...((raw.secrets ?? {}) as Record<string, string>) },
      ...(now !== undefined ? { now } : {}),
      ...(after !== undefined ? { after } : {}),
      mocks: ((raw.mock ?? []) as Raw[]).map((m, i) => compileMockRule(m, `${p}/mock/${i}`, ctx)),
      network: raw.network === 'allow' || raw.network === 'off' ? raw.network : defaults.network,
      ...(cassettePath
        ? { cassette: { path: cassettePath, display: displayNameOf(cassettePath), at: ctx.at(`${p}/cassette`) } }
        : {}),
      snapshot: raw.snapshot === true,
      ...(skip !== undefined ? { skip } : {}),
      timeoutMs: typeof raw.timeout_ms === 'number' ? raw.timeout_ms : DEFAULT_TIMEOUT_MS,
      expect: expectations((raw.expect ?? {}) as Raw, `${p}/expect`, p, ctx),
      ...(raw.expect !== undefined ? { expectKeys: Object.keys(raw.expect as Raw) } : {}),
    };
  });
}

/** Inputs are checked against the recipe here, so a wrong one is an invalid test file (exit 2), at its line. */
function checkInputs(plan: Plan, inputs: Raw, pointer: string, ctx: Checker): void {
  for (const d of resolveInputs(plan, inputs).diagnostics) {
    const name = /input "([^"]+)"/.exec(d.message)?.[1];
    const at = name !== undefined && Object.hasOwn(inputs, name) ? `${pointer}/${escapePointer(name)}` : pointer;
    ctx.diagnostics.push({ ...d, ...(d.code === 'I003' ? ctx.atKey(at) : ctx.at(at)) });
  }
}

function expectations(raw: Raw, p: string, casePointer: string, ctx: Checker): CaseExpectations {
  const hasError = raw.error !== undefined;
  if (raw.status === 'succeeded' && hasError) ctx.report('T009', {}, `${p}/status`);
  const status = raw.status === 'failed' || (raw.status === undefined && hasError) ? 'failed' : 'succeeded';
  const writes = raw.writes as unknown[] | undefined;
  return {
    status,
    statusAt: ctx.at(raw.status !== undefined ? `${p}/status` : ctx.locator.has(p) ? p : casePointer),
    ...(hasError
      ? { error: ctx.expected(typeof raw.error === 'string' ? { code: raw.error } : raw.error, `${p}/error`) }
      : {}),
    ...(raw.outputs !== undefined ? { outputs: ctx.expected(raw.outputs, `${p}/outputs`) } : {}),
    ...(writes !== undefined
      ? {
          writes: {
            items: writes.map((w, i) => ctx.expected(w, `${p}/writes/${i}`)),
            order: raw.writes_order === 'any' ? ('any' as const) : ('sent' as const),
            at: ctx.at(`${p}/writes`),
          },
        }
      : {}),
    ...(raw.requests !== undefined ? { requests: { ...(raw.requests as Raw), at: ctx.at(`${p}/requests`) } } : {}),
  };
}

function displayNameOf(absolute: string): string {
  const relative = path.relative(process.cwd(), absolute);
  return relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative;
}
