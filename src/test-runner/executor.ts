import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Agent } from '../client/undici.js';
import type { ConnectionConfig } from '../client/index.js';
import { checkCase } from './check-case.js';
import { TestClock } from './clock.js';
import type { Failure, CaseResult } from './results.js';
import { runCase, type CaseTarget } from './run-case.js';
import { ServiceSlot } from './service-slot.js';
import type { TestCase, TestFile } from './test-file.js';
import { TokenCache } from './token-cache.js';

/** Cases of one file that must run in order on one service (linked by `after`), with their start data. */
export interface WorkUnit {
  /** Absolute path of the test file. */
  readonly file: string;
  /** Case indexes in file order. */
  readonly cases: readonly number[];
  /** Template database per case index, for cases that start from fresh data on the embedded service. */
  readonly templates: Readonly<Record<number, string>>;
}

export interface ExecutorOptions {
  /** A folder of its own for the service's database and the cases' downloads. */
  readonly tmp: string;
  /** Any template database: the service starts on a copy of it. */
  readonly initialTemplate: () => Promise<string>;
  /** --update: snapshot cases are rewritten, not failed. */
  readonly update: boolean;
  /** --record: the live service that cases with a cassette run against. */
  readonly live?: ConnectionConfig;
  /** --allow-network: http steps may reach URLs no mock answers. */
  readonly allowNetwork?: boolean;
}

/**
 * Runs work units one case at a time on one embedded service (started at the first case that needs it),
 * resetting its data between cases and keeping a case's data for the cases that run after it.
 */
export class Executor {
  private slot: Promise<ServiceSlot> | undefined;
  private readonly agent = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
  private readonly tokens = new TokenCache();
  private readonly clock = new TestClock();
  private readonly downloads: string;

  constructor(private readonly options: ExecutorOptions) {
    this.downloads = path.join(options.tmp, 'downloads');
    mkdirSync(this.downloads, { recursive: true });
  }

  async run(unit: WorkUnit, file: TestFile): Promise<CaseResult[]> {
    const results: CaseResult[] = [];
    /** Per case that ran: its result, and where its data came from and went (for the cases after it). */
    const done = new Map<string, { result: CaseResult; start?: Start }>();
    const needed = new Set(unit.cases.map((i) => file.cases[i]?.after).filter((n): n is string => n !== undefined));
    for (const index of unit.cases) {
      const c = file.cases[index] as TestCase;
      const before = c.after !== undefined ? done.get(c.after) : undefined;
      const template = unit.templates[index];
      let start: Start | undefined;
      if (before?.start) start = before.start;
      else if (template) start = { data: template, from: template };
      let result: CaseResult;
      if (c.skip !== undefined) result = skipped(file, c, c.skip);
      else if (c.after !== undefined && before?.result.status !== 'passed' && before?.result.status !== 'updated')
        result = skipped(file, c, `after: "${c.after}" did not pass`);
      else {
        const outcome = await this.runOne(file, c, start, needed.has(c.name));
        result = outcome.result;
        start = outcome.next;
      }
      done.set(c.name, { result, ...(start ? { start } : {}) });
      results.push(result);
    }
    return results;
  }

  /** Runs one case; `next` is where the cases after it start (a snapshot of its data), when any does. */
  private async runOne(
    file: TestFile,
    c: TestCase,
    start: Start | undefined,
    keep: boolean,
  ): Promise<{ result: CaseResult; next?: Start }> {
    const started = performance.now();
    let target: CaseTarget;
    let slot: ServiceSlot | undefined;
    if (c.cassette && this.options.live) target = { kind: 'live', config: this.options.live, record: true };
    else if (c.cassette) target = { kind: 'cassette' };
    else if (!start) throw new Error(`no data for case "${c.name}"`);
    else {
      slot = await this.service();
      await slot.restore(start.from);
      target = { kind: 'embedded', url: slot.url, data: start.data };
    }
    const base = { file: file.display, name: c.name, line: c.at.line };
    try {
      const run = await runCase(file, c, {
        target,
        agent: this.agent,
        tokens: this.tokens,
        clock: this.clock,
        downloads: this.downloads,
        allowNetwork: this.options.allowNetwork === true,
      });
      slot?.touched();
      const next = keep && slot && start ? { data: start.data, from: await slot.snapshot() } : undefined;
      const failures: Failure[] = await checkCase(c, run);
      const status = c.snapshot && this.options.update ? 'updated' : failures.length > 0 ? 'failed' : 'passed';
      const result: CaseResult = {
        ...base,
        status,
        durationMs: Math.round(performance.now() - started),
        failures: status === 'updated' ? [] : failures,
        run: {
          status: run.report.status,
          ...(run.report.error ? { error: run.report.error } : {}),
          requests: run.report.requests,
          outputs: run.report.outputs,
        },
        writes: run.writes,
        logs: run.logs,
        hits: run.hits,
      };
      return { result, ...(next ? { next } : {}) };
    } catch (err) {
      slot?.touched();
      const message = `the case could not run: ${(err as Error).message}`;
      return {
        result: {
          ...base,
          status: 'failed',
          durationMs: Math.round(performance.now() - started),
          failures: [{ what: 'run', at: c.at, message }],
        },
      };
    }
  }

  private service(): Promise<ServiceSlot> {
    this.slot ??= this.options.initialTemplate().then((t) => ServiceSlot.start(this.options.tmp, t, this.clock));
    return this.slot;
  }

  async close(): Promise<void> {
    if (this.slot) await (await this.slot).close();
    await this.agent.close();
  }
}

/** Where a case's data comes from: the template its lineage started from, and the file to restore now. */
interface Start {
  readonly data: string;
  readonly from: string;
}

function skipped(file: TestFile, c: TestCase, reason: string): CaseResult {
  return {
    file: file.display,
    name: c.name,
    line: c.at.line,
    status: 'skipped',
    durationMs: 0,
    failures: [],
    skipReason: reason,
  };
}
