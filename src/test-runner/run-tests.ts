import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { completeConnectionConfig, readConnectionConfig, type ConnectionConfig } from '../client/index.js';
import type { Plan } from '../compile/plan.js';
import type { CheckResult } from '../run/index.js';
import { catalogForService } from '../catalog/service-catalog.js';
import { RecipeError, type Diagnostic } from '../errors/index.js';
import { makeDiagnostic, sortDiagnostics } from '../source/index.js';
import { computeCoverage } from './coverage.js';
import { findTestFiles } from './discover.js';
import { Executor, type WorkUnit } from './executor.js';
import { loadTestFile } from './load-test-file.js';
import type { CaseResult, TestRunResult } from './results.js';
import { canUseWorkers, runInWorkers } from './pool.js';
import { planUnits } from './schedule.js';
import { applySnapshotUpdates } from './snapshot-update.js';
import { TemplateError, Templates } from './templates.js';
import type { TestFile } from './test-file.js';

/** What `recipe test` does. */
export interface RunTestsOptions {
  /** Files and folders (default: the working directory). */
  readonly paths?: readonly string[];
  /** Only cases whose name contains this (and the cases they run after). */
  readonly filter?: string;
  /** Rewrite the expectations of snapshot cases from what they did. */
  readonly update?: boolean;
  /** Run cases that name a cassette against the live service (CONNECTOR_API_URL) and record it. */
  readonly record?: boolean;
  readonly coverage?: boolean;
  /** Parallel workers, each with its own embedded service (default 1: all in this process). */
  readonly jobs?: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Requests of http steps that no mock answers are sent (default: refused with T012, no socket opened). */
  readonly allowNetwork?: boolean;
  /** Warnings (W codes) stop a tested recipe's cases, as `recipe validate --strict` fails it. */
  readonly strict?: boolean;
  /** Told each tested recipe's warnings, once, before any case runs. */
  readonly onWarning?: (warning: Diagnostic) => void;
  /** Told about each file's results as soon as they are all in, in file order. */
  readonly onFile?: (results: CaseResult[]) => void;
}

/**
 * Runs every case of every test file found and reports: results per case, the problems of invalid files,
 * coverage when asked. Never throws for a failing case or an invalid file; throws C001 when --record has no
 * live service configured.
 */
export async function runTests(options: RunTestsOptions = {}): Promise<TestRunResult> {
  const started = performance.now();
  const paths = options.paths && options.paths.length > 0 ? options.paths : ['.'];
  const found = await findTestFiles(paths);
  const diagnostics: Diagnostic[] = [];
  if (found.length === 0) {
    diagnostics.push(
      makeDiagnostic('T010', { paths: paths.join(', ') }, { file: paths[0] ?? '.', line: 1, column: 1 }),
    );
    return { results: [], diagnostics, files: 0, durationMs: 0, updated: [] };
  }
  const live = options.record ? liveConfig(options.env ?? process.env) : undefined;
  const plans = new Map<string, Promise<CheckResult>>();
  // Tested recipes are checked as a run checks them: against the embedded types (cases run on the embedded
  // service, or replay cassettes), or with --record against the live service's catalog.
  const catalog = await catalogForService(live?.baseUrl);
  const files: TestFile[] = [];
  const warned = new Set<string>();
  for (const f of found) {
    const loaded = await loadTestFile(f, {
      recording: options.record === true,
      plans,
      ...(catalog ? { catalog } : {}),
      ...(options.strict !== undefined ? { strict: options.strict } : {}),
    });
    if (loaded.file) files.push(loaded.file);
    else diagnostics.push(...loaded.diagnostics);
    const recipe = loaded.file?.checked;
    if (recipe && !warned.has(recipe.plan.file)) {
      warned.add(recipe.plan.file);
      for (const w of recipe.warnings) options.onWarning?.(w);
    }
  }
  const tmp = mkdtempSync(path.join(tmpdir(), 'recipe-test-'));
  const templates = new Templates(tmp);
  const results: CaseResult[] = [];
  try {
    const runnable: { file: TestFile; units: WorkUnit[] }[] = [];
    for (const file of files) {
      try {
        runnable.push({ file, units: await planUnits(file, templates, options) });
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err;
        const shown = file.data.kind === 'fixtures' ? path.relative(path.dirname(file.path), file.data.path) : 'seed';
        diagnostics.push(makeDiagnostic('T003', { path: shown, reason: err.message }, file.dataAt));
      }
    }
    await execute(runnable, tmp, options, live, (fileResults) => {
      options.onFile?.(fileResults);
      results.push(...fileResults);
    });
    const updated = options.update ? applySnapshotUpdates(files, results) : [];
    return {
      results,
      diagnostics: sortDiagnostics(diagnostics),
      files: found.length,
      durationMs: Math.round(performance.now() - started),
      ...(options.coverage
        ? {
            coverage: computeCoverage(
              uniquePlans(files),
              results.map((r) => r.hits ?? {}),
              displayName,
            ),
          }
        : {}),
      updated,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Runs every unit, in this process (jobs 1) or in worker threads, and hands each file's results over in file
 * order as soon as all of its units are done.
 */
async function execute(
  runnable: readonly { file: TestFile; units: WorkUnit[] }[],
  tmp: string,
  options: RunTestsOptions,
  live: ConnectionConfig | undefined,
  onFile: (results: CaseResult[]) => void,
): Promise<void> {
  const pending = runnable.map(({ units }) => ({ left: units.length, results: [] as CaseResult[] }));
  const fileIndex = new Map(runnable.map(({ file }, i) => [file.path, i]));
  let flushed = 0;
  const flush = () => {
    while (flushed < pending.length && pending[flushed]?.left === 0) {
      onFile((pending[flushed]?.results ?? []).sort((a, b) => a.line - b.line));
      flushed++;
    }
  };
  const onUnit = (unit: WorkUnit, results: CaseResult[]) => {
    const entry = pending[fileIndex.get(unit.file) ?? -1];
    if (!entry) return;
    entry.results.push(...results);
    entry.left--;
    flush();
  };
  flush(); // files with no unit to run (every case filtered out)
  const units = runnable.flatMap(({ units: u }) => u);
  // A service starts on a copy of any template (each case then restores its own).
  const initialTemplate = units.flatMap((u) => Object.values(u.templates))[0] ?? '';
  const jobs = Math.min(options.jobs ?? 1, units.length);
  if (jobs > 1 && canUseWorkers()) {
    await runInWorkers(
      units,
      jobs,
      {
        tmp,
        initialTemplate,
        update: options.update === true,
        recording: options.record === true,
        allowNetwork: options.allowNetwork === true,
        ...(live ? { live } : {}),
      },
      onUnit,
    );
    return;
  }
  const executor = new Executor({
    tmp,
    initialTemplate: () => Promise.resolve(initialTemplate),
    update: options.update === true,
    allowNetwork: options.allowNetwork === true,
    ...(live ? { live } : {}),
  });
  try {
    for (const { file, units: fileUnits } of runnable)
      for (const unit of fileUnits) onUnit(unit, await executor.run(unit, file));
  } finally {
    await executor.close();
  }
}

function liveConfig(env: Readonly<Record<string, string | undefined>>): ConnectionConfig {
  const partial = readConnectionConfig({}, env);
  if (partial.baseUrl === undefined)
    throw new RecipeError('C001', {
      reason: '--record needs a live service: set CONNECTOR_API_URL and its credentials',
    });
  return completeConnectionConfig(partial);
}

function uniquePlans(files: readonly TestFile[]): Plan[] {
  return [...new Set(files.map((f) => f.recipe))];
}

function displayName(absolute: string): string {
  const relative = path.relative(process.cwd(), absolute);
  return relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative;
}
