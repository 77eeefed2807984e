import { createRequire } from 'node:module';
import type * as WorkerThreads from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { SQLITE_ADDON } from '../../sqlite/library.js';
import { SQLITE_HOUSE_PRAGMAS } from '../../sqlite/open-database.js';
import { APPEND_SQL, type Append, type AppendName } from './statements.js';

/**
 * Where a held run's appends go. `write` hands over a batch (one transaction, in order); `sync` resolves once
 * everything handed over before it is committed, and rejects with the first write that failed.
 */
export interface WriteSink {
  /** `bytes`: about how much the batch holds, for backpressure. */
  write(batch: readonly Append[], bytes: number): void;
  sync(): Promise<void>;
  /** A Promise while the writer is too far behind (resolves once it caught up), else undefined. */
  backlog(): Promise<void> | undefined;
  close(): Promise<void>;
}

/** The writer thread may fall this far behind before producers wait, and they go on below LOW_WATER. */
const HIGH_WATER = 64 * 1024 * 1024;
const LOW_WATER = 16 * 1024 * 1024;

/** Applies batches at once on the store's own connection (an in-memory journal, which no thread can share). */
export class InThreadSink implements WriteSink {
  private readonly statements: Record<AppendName, Database.Statement>;
  private readonly apply: (batch: readonly Append[]) => void;
  private failure: Error | null = null;

  constructor(db: Database.Database) {
    this.statements = prepareAll(db);
    this.apply = db.transaction((batch: readonly Append[]) => {
      for (const [name, ...params] of batch) this.statements[name].run(...params);
    });
  }

  backlog(): undefined {
    return undefined;
  }

  write(batch: readonly Append[]): void {
    if (this.failure) return;
    try {
      this.apply(batch);
    } catch (err) {
      this.failure = err instanceof Error ? err : new Error(String(err));
    }
  }

  async sync(): Promise<void> {
    if (this.failure) throw this.failure;
  }

  async close(): Promise<void> {}
}

/**
 * How much a file journal writes on the store's own connection before its writer thread takes over. A
 * worker thread costs ~100 ms of CPU to start (Node bootstraps a second runtime) and a run's end waits for
 * it: more than a short run's whole journal (a run of 2,000 calls writes ~3 MB, in ~20 ms here), and
 * bench/README.md's journaled one-call run paid it as ~100 ms of wall time. A run that writes more hands
 * over while it runs, so a long one still keeps SQLite's work off the interpreter's thread.
 */
const IN_THREAD_BYTES = 4 * 1024 * 1024;

/**
 * Writes on the store's connection (InThreadSink) until IN_THREAD_BYTES, then hands over to the writer
 * thread (WorkerSink): every batch before the hand-over is committed when `write` returns, so the thread's
 * batches come after them, in order.
 */
export class HandOverSink implements WriteSink {
  private readonly first: InThreadSink;
  private thread: WorkerSink | null = null;
  private written = 0;

  constructor(
    db: Database.Database,
    private readonly startThread: () => WorkerSink,
  ) {
    this.first = new InThreadSink(db);
  }

  write(batch: readonly Append[], bytes: number): void {
    if (this.thread) return this.thread.write(batch, bytes);
    this.first.write(batch);
    this.written += bytes;
    if (this.written >= IN_THREAD_BYTES) this.thread = this.startThread();
  }

  async sync(): Promise<void> {
    // A batch that failed on this thread fails every later sync, as the writer thread's failures do.
    await this.first.sync();
    await this.thread?.sync();
  }

  backlog(): Promise<void> | undefined {
    return this.thread?.backlog();
  }

  async close(): Promise<void> {
    await this.thread?.close();
  }
}

function prepareAll(db: Database.Database): Record<AppendName, Database.Statement> {
  const out = {} as Record<AppendName, Database.Statement>;
  for (const name of Object.keys(APPEND_SQL) as AppendName[]) out[name] = db.prepare(APPEND_SQL[name]);
  return out;
}

/**
 * The writer thread: its own connection to the journal file, one transaction per batch, in order. SQLite's
 * work (and the memory the answers take on their way to disk) stays off the interpreter's thread, so a run
 * waits for the journal only where it must: a write's intent, durable before the write is sent (`sync`).
 * Plain JavaScript evaluated in the worker, so that it runs the same from dist/ and from the test sources.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const options = { timeout: workerData.busyMs };
if (workerData.addon) options.nativeBinding = workerData.addon;
const db = new Database(workerData.path, options);
for (const pragma of workerData.pragmas) db.pragma(pragma);
const statements = {};
for (const [name, sql] of Object.entries(workerData.sql)) statements[name] = db.prepare(sql);
const apply = db.transaction((batch) => { for (const [name, ...params] of batch) statements[name].run(...params); });
let failed = null;
parentPort.on('message', (m) => {
  if (m.close) { db.close(); parentPort.postMessage({ closed: true }); return; }
  if (m.batch) {
    if (!failed) {
      try { apply(m.batch); } catch (err) { failed = String((err && err.message) || err); }
    }
    parentPort.postMessage({ written: m.bytes });
  }
  if (m.sync !== undefined) parentPort.postMessage({ sync: m.sync, error: failed });
});
`;

export class WorkerSink implements WriteSink {
  private readonly worker: WorkerThreads.Worker;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  private nextSync = 0;
  private closed: Promise<void> | null = null;
  private dead: Error | null = null;
  private outstanding = 0;
  private caughtUp: { promise: Promise<void>; resolve: () => void } | null = null;

  constructor(path: string, busyMs: number) {
    const load = createRequire(import.meta.url);
    const sqlite = load.resolve('better-sqlite3');
    // Loaded here, not with the module: most runs never start the thread (HandOverSink), and loading
    // node:worker_threads is ~4 ms of a CLI start.
    const threads = load('node:worker_threads') as typeof WorkerThreads;
    // The house pragmas (src/sqlite/) as data: the worker's plain JavaScript cannot import the module.
    const pragmas = SQLITE_HOUSE_PRAGMAS;
    this.worker = new threads.Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path, busyMs, pragmas, sqlite, addon: SQLITE_ADDON, sql: APPEND_SQL },
    });
    this.worker.unref();
    this.worker.on('message', (m: { sync?: number; error?: string | null; written?: number }) => {
      if (m.written !== undefined) {
        this.outstanding -= m.written;
        if (this.caughtUp && this.outstanding < LOW_WATER) this.release();
        return;
      }
      if (m.sync === undefined) return;
      const waiter = this.waiting.get(m.sync);
      this.waiting.delete(m.sync);
      if (m.error) waiter?.reject(new Error(m.error));
      else waiter?.resolve();
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => {
      if (!this.closed) this.fail(new Error(`the journal's writer thread stopped (exit ${code})`));
    });
  }

  write(batch: readonly Append[], bytes: number): void {
    if (this.dead) return;
    this.outstanding += bytes;
    this.worker.postMessage({ batch, bytes });
  }

  backlog(): Promise<void> | undefined {
    if (this.outstanding < HIGH_WATER || this.dead) return this.caughtUp?.promise;
    if (!this.caughtUp) {
      let resolve = (): void => undefined;
      const promise = new Promise<void>((r) => (resolve = r));
      this.caughtUp = { promise, resolve };
    }
    return this.caughtUp.promise;
  }

  private release(): void {
    const waiting = this.caughtUp;
    this.caughtUp = null;
    waiting?.resolve();
  }

  sync(): Promise<void> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextSync++;
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ sync: id });
    });
  }

  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      if (this.dead) return resolve();
      const done = (m: { closed?: boolean }): void => {
        if (!m.closed) return;
        this.worker.off('message', done);
        void this.worker.terminate().then(() => resolve());
      };
      this.worker.on('message', done);
      this.worker.postMessage({ close: true });
    });
    return this.closed;
  }

  private fail(err: Error): void {
    this.dead ??= err;
    this.release();
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}
