/**
 * The interpreter's behaviour as data: every case file under test/cases/<step-kind>/ (see README.md) runs
 * through the real CLI against the embedded service. Cases that `recipe test` can express (outputs, writes,
 * errors, request counts, mocked answers) run in one `recipe test` process; cases that look at the run report,
 * the log, files or a scripted HTTP server run one `recipe run --json` each. The last tests check that every
 * step kind and every documented step field of schemas/recipe.schema.json has a case, and print the counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverCaseFiles, routeOf, type RoutedCase } from './harness/case-file.js';
import { missingLabels, readStepLanguage, requiredLabels } from './harness/step-coverage.js';
import { runRunRoute, ServicePool } from './harness/via-run.js';
import { runTestRoute, testRouteKey, type TestRouteResult } from './harness/via-test.js';

const files = discoverCaseFiles();
const cases: RoutedCase[] = files.flatMap((file) =>
  file.cases.map((spec) => ({ file, spec, route: routeOf(file, spec) })),
);
const viaTest = cases.filter((c) => c.route === 'test');
const viaRun = cases.filter((c) => c.route === 'run');

const runTimes: number[] = [];
const services = new ServicePool();

/** At most two CLI processes at once (the batch of `recipe test` is one of them): the machine has two cores. */
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((ok) => waiting.push(ok));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

let batch: Awaited<ReturnType<typeof runTestRoute>> | undefined;
let batchDone: Promise<void> = Promise.resolve();
beforeAll(() => {
  // Started, not awaited: the `recipe run` cases use the other slot meanwhile.
  if (viaTest.length)
    batchDone = slot(() => runTestRoute(viaTest)).then((b) => {
      batch = b;
    });
});

const title = (c: RoutedCase) => `${c.file.id}: ${c.spec.name}`;

describe.concurrent('cases through `recipe run --json`', () => {
  it.each(viaRun.map((c) => [title(c), c] as const))(
    '%s',
    async (_t, c) => {
      const { problems, ms } = await slot(() => runRunRoute(c, services));
      runTimes.push(ms);
      expect(problems.join('\n\n')).toBe('');
    },
    600_000,
  );
});

describe('cases through `recipe test`', () => {
  it.each(viaTest.map((c) => [title(c), c] as const))(
    '%s',
    async (_t, c) => {
      await batchDone;
      const result: TestRouteResult | undefined = batch?.results.get(testRouteKey(c));
      if (!result) throw new Error(`recipe test did not report this case (exit ${batch?.code}):\n${batch?.output}`);
      const failures = result.failures.map(
        (f) =>
          `${f.what}: ${f.message ?? ''}${'expected' in f ? `\n  - expected: ${JSON.stringify(f.expected)}\n  + actual:   ${JSON.stringify(f.actual)}` : ''}`,
      );
      expect(failures, JSON.stringify({ run: result.run, writes: result.writes }, null, 2)).toEqual([]);
      expect(result.status).toBe('passed');
    },
    180_000,
  );
});

describe('coverage of the step language', () => {
  const lang = readStepLanguage();

  it('every step kind and every documented step field has a case', () => {
    expect(lang.kinds.length).toBeGreaterThanOrEqual(11);
    expect(missingLabels(files, lang)).toEqual([]);
    const kindsWithCases = new Set(files.map((f) => f.kind));
    expect(lang.kinds.filter((k) => !kindsWithCases.has(k))).toEqual([]);
  });

  it('the check names what no case uses', () => {
    const missing = missingLabels([], lang);
    expect(missing).toEqual(requiredLabels(lang));
    expect(missing).toContain('http.success_status');
    expect(missing).toContain('paginate.as');
    expect(missing).toContain('common.when');
  });
});

afterAll(async () => {
  await services.close();
  const perKind = new Map<string, number>();
  for (const c of cases) perKind.set(c.file.kind, (perKind.get(c.file.kind) ?? 0) + 1);
  const lines = [...perKind].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `  ${k.padEnd(10)} ${n}`);
  const runMs = runTimes.reduce((a, b) => a + b, 0);
  console.log(
    [
      `interpreter cases: ${cases.length} in ${files.length} files`,
      ...lines,
      `  via recipe test: ${viaTest.length} cases in one process, ${batch?.ms ?? 0} ms`,
      `  via recipe run --json: ${viaRun.length} cases, ${runMs} ms of processes`,
    ].join('\n'),
  );
});
