import { formatFileLineCol } from '../errors/index.js';
import { count, matchExpected, type Mismatch } from './match.js';
import type { Failure } from './results.js';
import type { CaseRun } from './run-case.js';
import type { TestCase } from './test-file.js';
import type { WriteRecord } from './traffic.js';

/** Compares what a case's run did with what the case expects; every unmet expectation is one Failure. */
export async function checkCase(c: TestCase, run: CaseRun): Promise<Failure[]> {
  const failures: Failure[] = [];
  const { report } = run;
  for (const miss of run.misses)
    failures.push({
      what: 'cassette',
      at: c.cassette?.at ?? c.at,
      message: `the recipe asked for a call the cassette does not hold: ${miss}`,
    });
  // A refused request the recipe went on after (on_error: continue) still fails the case: it needs a mock.
  if (report.error?.code !== 'T012')
    for (const message of run.refused) failures.push({ what: 'network', at: c.at, message: `T012 ${message}` });
  const actualStatus = report.status === 'ok' ? 'succeeded' : 'failed';
  if (actualStatus !== c.expect.status) {
    const e = report.error;
    const where = e?.file ? ` at ${formatFileLineCol(e)}` : '';
    failures.push({
      what: 'status',
      at: c.expect.statusAt,
      expected: c.expect.status,
      actual: actualStatus,
      ...(report.status === 'interrupted'
        ? { message: `the case ran longer than its timeout_ms (${c.timeoutMs} ms) and was stopped${where}` }
        : e
          ? { message: `the run failed${where}: ${e.code} ${e.message}` }
          : {}),
    });
    // Outputs and writes of a run that ended the wrong way would only repeat the same news.
    return failures;
  }
  const bindings = run.bindings;
  const fromMismatches = (prefix: string, list: Mismatch[]) =>
    list.map((m) => ({
      what: joinPath(prefix, m.path),
      at: m.at,
      expected: m.expected,
      actual: m.actual,
      ...(m.reason ? { message: m.reason } : {}),
    }));
  if (c.expect.error) {
    const actual = report.error ?? null;
    failures.push(...fromMismatches('expect.error', await matchExpected(c.expect.error, actual, '', bindings)));
  }
  if (c.expect.outputs)
    failures.push(
      ...fromMismatches('expect.outputs', await matchExpected(c.expect.outputs, report.outputs, '', bindings)),
    );
  if (c.expect.writes) failures.push(...(await checkWrites(c.expect.writes, run.writes, bindings)));
  const bounds = c.expect.requests;
  if (bounds) {
    const n = report.requests;
    const problem =
      bounds.count !== undefined && n !== bounds.count
        ? `expected exactly ${count(bounds.count, 'request')}`
        : bounds.max !== undefined && n > bounds.max
          ? `expected at most ${count(bounds.max, 'request')}`
          : bounds.min !== undefined && n < bounds.min
            ? `expected at least ${count(bounds.min, 'request')}`
            : undefined;
    if (problem) failures.push({ what: 'expect.requests', at: bounds.at, message: `${problem}, the run sent ${n}` });
  }
  return failures;
}

async function checkWrites(
  expected: NonNullable<TestCase['expect']['writes']>,
  actual: WriteRecord[],
  bindings: Record<string, unknown>,
): Promise<Failure[]> {
  if (actual.length !== expected.items.length)
    return [
      {
        what: 'expect.writes',
        at: expected.at,
        message: `expected ${count(expected.items.length, 'write')}, the run made ${actual.length}`,
        actual: actual.map(describeWrite),
      },
    ];
  const failures: Failure[] = [];
  if (expected.order === 'sent') {
    for (const [i, item] of expected.items.entries())
      for (const m of await matchExpected(item, actual[i], '', bindings))
        failures.push(toFailure(`expect.writes[${i}]`, m));
    return failures;
  }
  // Any order: each expected write takes the first unclaimed actual write it matches.
  const free = new Set(actual.keys());
  for (const [i, item] of expected.items.entries()) {
    let best: { index: number; mismatches: Mismatch[] } | undefined;
    for (const j of free) {
      const mismatches = await matchExpected(item, actual[j], '', bindings);
      if (!best || mismatches.length < best.mismatches.length) best = { index: j, mismatches };
      if (mismatches.length === 0) break;
    }
    if (best && best.mismatches.length === 0) free.delete(best.index);
    else if (best)
      failures.push(...best.mismatches.map((m) => toFailure(`expect.writes[${i}] (closest: write ${best.index})`, m)));
  }
  return failures;
}

function toFailure(prefix: string, m: Mismatch): Failure {
  return {
    what: joinPath(prefix, m.path),
    at: m.at,
    expected: m.expected,
    actual: m.actual,
    ...(m.reason ? { message: m.reason } : {}),
  };
}

/** A write in one line: entity.action and its params, or the http method, URL and body. */
export function describeWrite(w: WriteRecord): string {
  if ('http' in w) return `http ${w.http.method} ${w.http.url} ${JSON.stringify(w.http.body)}`;
  return `${w.entity}.${w.action} ${JSON.stringify(w.params)}`;
}

function joinPath(prefix: string, path: string): string {
  return path === '' ? prefix : path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`;
}
