import { hostname } from 'node:os';
import { RecipeError } from '../../errors/index.js';
import type {
  HeldLease,
  AttemptRecord,
  AttemptStart,
  CancelRequest,
  ExchangeRecord,
  JournalStore,
  RunFilter,
  RunJournal,
  RunRecord,
  RunStart,
  RunSummary,
  SeqRange,
  StepEventRecord,
} from '../types.js';
import { fieldsOf, type RedisCommands } from './client.js';
import { JournalKeys } from './schema.js';
import { Lease } from './locks.js';
import { PathCodec } from '../path-codec.js';
import { statusOf, toAttempts, toExchange, toRun, toStep, toSummary, type RunKeys } from './records.js';
import { RedisRunJournal, type RedisRunOwner } from './run-journal.js';
import { BEGIN, FOLD_PARTS, HOLD_PART, RESUME } from './statements.js';

/** How the Redis journal is set up. */
export interface RedisJournalOptions {
  /** Key prefix (default `recipe:journal`); one journal per prefix. */
  readonly prefix?: string;
  /** The recipes directory: recipe paths are stored relative to it, so every worker reads them as its own. */
  readonly recipesDir?: string;
  /**
   * How long a run stays held after its holder stops renewing (default 30 s): a worker that dies lets go of
   * its runs at most this long after. Keep it no longer than the queue's lock duration, so that by the time
   * the queue hands a stalled job to another worker the run is free to resume.
   */
  readonly leaseMs?: number;
  /** Said in `holder` (default host:pid). */
  readonly holderName?: string;
  /** Called by close(), e.g. to quit the connection the caller opened for this store. */
  readonly onClose?: () => Promise<void>;
}

/** Runs are read for history in pages of this many. */
const PAGE = 200;

/**
 * The run journal on Redis, shared by a fleet of workers: any worker resumes a run another began. A run
 * is held through a lease (a key with an expiry its holder renews, see Lease); appends are Lua scripts
 * fenced by the lease, so a worker that lost hold of a run cannot write beside its new holder. The Redis
 * client is the caller's (journal/ uses no Redis library: see client.ts).
 */
export class RedisJournalStore implements JournalStore {
  private readonly keys: JournalKeys;
  private readonly paths: PathCodec;
  /** How long a run stays held after its holder stops renewing. */
  readonly leaseMs: number;
  private readonly open = new Set<RedisRunJournal>();

  constructor(
    private readonly redis: RedisCommands,
    private readonly options: RedisJournalOptions = {},
  ) {
    this.keys = new JournalKeys(options.prefix ?? 'recipe:journal');
    this.paths = new PathCodec(options.recipesDir);
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  async begin(start: RunStart): Promise<RunJournal> {
    const lease = new Lease(this.redis, this.keys.lease(start.run_id), this.leaseMs);
    const fields: Record<string, string> = {
      run_id: start.run_id,
      recipe: start.recipe,
      file: this.paths.store(start.file),
      status: 'running',
      started_at: String(start.started_at),
      attempts: '1',
      dry_run: start.dry_run ? '1' : '0',
      files: JSON.stringify(start.files.map((f) => ({ ...f, path: this.paths.store(f.path) }))),
      inputs: JSON.stringify(start.inputs),
      options: JSON.stringify(start.options),
      holder: this.holder(),
      seq: '0',
    };
    const attempt = JSON.stringify({ kind: 'run', started_at: start.started_at, options: {} });
    const reply = await this.script(() =>
      BEGIN.run(
        this.redis,
        [this.keys.run(start.run_id), this.keys.runs, lease.key, `${this.keys.run(start.run_id)}:att`],
        [start.run_id, lease.token, this.leaseMs, start.started_at, attempt, ...Object.entries(fields).flat()],
      ),
    );
    if (reply === 'exists') throw new RecipeError('J006', { runId: start.run_id, journal: this.where() });
    if (reply === 'held') throw new RecipeError('J003', { runId: start.run_id, holder: 'another worker' });
    return this.held(lease, start.run_id, 1, false);
  }

  async resume(runId: string, a: AttemptStart): Promise<RunJournal> {
    const lease = new Lease(this.redis, this.keys.lease(runId), this.leaseMs);
    const attempt = JSON.stringify({ kind: a.kind, started_at: a.started_at, options: a.options });
    const reply = (await this.script(() =>
      RESUME.run(
        this.redis,
        [this.keys.run(runId), lease.key, `${this.keys.run(runId)}:att`],
        [lease.token, this.leaseMs, this.holder(), attempt, a.started_at],
      ),
    )) as [string, number?];
    if (reply[0] === 'missing') throw new RecipeError('J001', { runId, journal: this.where() });
    if (reply[0] === 'held') {
      const holder = (await this.redis.call('HGET', this.keys.run(runId), 'holder')) as string | null;
      throw new RecipeError('J003', { runId, holder: describeHolder(holder) });
    }
    return this.held(lease, runId, Number(reply[1]), true);
  }

  /**
   * Holds a part of a run for another worker (a chunk of a distributed foreach): its calls join the run's
   * exchanges (lookups replay them when the part runs again), its counters join the run's totals. The part
   * has its own lease, so parts run side by side and a dead worker's part is free once its lease runs out.
   */
  async holdPart(runId: string, part: string): Promise<RunJournal> {
    const lease = new Lease(this.redis, this.keys.lease(runId, part), this.leaseMs);
    const reply = (await this.script(() =>
      HOLD_PART.run(this.redis, [this.keys.run(runId), lease.key], [lease.token, this.leaseMs]),
    )) as [string, number?];
    if (reply[0] === 'missing') throw new RecipeError('J001', { runId, journal: this.where() });
    if (reply[0] === 'held') throw new RecipeError('J003', { runId: `${runId} (${part})`, holder: 'another worker' });
    return this.held(lease, runId, Number(reply[1]), true, part);
  }

  /**
   * The leases held now (runs, and parts of runs, that a live process holds) with the time left on each: what
   * `recipe fleet status` shows. A SCAN over this journal's lease keys.
   */
  async leases(): Promise<HeldLease[]> {
    const prefix = this.keys.lease('');
    const out: HeldLease[] = [];
    let cursor = '0';
    do {
      const [next, found] = (await this.redis.call('SCAN', cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)) as [
        string,
        string[],
      ];
      cursor = next;
      for (const key of found) {
        const [runId = '', part] = key.slice(prefix.length).split(':');
        const ttl = Number(await this.redis.call('PTTL', key));
        if (ttl < 0) continue;
        const holder =
          part === undefined
            ? ((await this.redis.call('HGET', this.keys.run(runId), 'holder')) as string | null)
            : null;
        out.push({
          run_id: runId,
          part: part ?? null,
          holder: holder ? ((JSON.parse(holder) as { worker?: string }).worker ?? null) : null,
          expires_in_ms: ttl,
        });
      }
    } while (cursor !== '0');
    return out.sort((a, b) => a.run_id.localeCompare(b.run_id) || (a.part ?? '').localeCompare(b.part ?? ''));
  }

  async foldParts(runId: string, parts: readonly string[]): Promise<void> {
    if (parts.length === 0) return;
    await this.script(() => FOLD_PARTS.run(this.redis, [`${this.keys.run(runId)}:parts`], [...parts]));
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    const k = await this.readRun(runId);
    return k && toRun(this.paths, k);
  }

  async listRuns(filter: RunFilter = {}): Promise<RunSummary[]> {
    const limit = Math.max(1, Math.min(filter.limit ?? 20, 10_000));
    // Keyset paging: the runs index is scored by start time, and Redis orders equal scores by member
    // descending, which is the listing's order (started_at, then run_id, both descending).
    const cursor = filter.before;
    const at = cursor === undefined ? undefined : Date.parse(cursor.started_at);
    if (at !== undefined && Number.isNaN(at)) return [];
    const out: RunSummary[] = [];
    for (let from = 0; out.length < limit; from += PAGE) {
      const page =
        at === undefined
          ? ((await this.redis.call('ZREVRANGE', this.keys.runs, from, from + PAGE - 1)) as string[])
          : ((await this.redis.call(
              'ZREVRANGEBYSCORE',
              this.keys.runs,
              at,
              '-inf',
              'WITHSCORES',
              'LIMIT',
              from,
              PAGE,
            )) as string[]);
      if (page.length === 0) break;
      // With a cursor the page holds id, score pairs; the cursor's own millisecond keeps only smaller ids.
      const ids =
        cursor === undefined
          ? page
          : page.filter((id, i) => i % 2 === 0 && !(Number(page[i + 1]) === at && id >= cursor.run_id));
      const runs = await Promise.all(ids.map((id) => this.readRun(id)));
      for (const k of runs) {
        if (!k) continue;
        if (filter.recipe !== undefined && k.run.recipe !== filter.recipe && k.run.file !== filter.recipe) continue;
        if (filter.status !== undefined && statusOf(k) !== filter.status) continue;
        out.push(toSummary(this.paths, k));
        if (out.length >= limit) break;
      }
    }
    return out;
  }

  async listAttempts(runId: string): Promise<AttemptRecord[]> {
    const k = await this.readRun(runId);
    return k ? toAttempts(k.att, k.held && k.run.status === 'running') : [];
  }

  async listSteps(runId: string, range: SeqRange = {}): Promise<StepEventRecord[]> {
    const base = this.keys.run(runId);
    const texts = await this.bySeq(`${base}:stq`, `${base}:st`, range.after_seq, range.limit);
    return texts.map((t) => toStep(this.paths, t));
  }

  async listExchanges(
    runId: string,
    range: SeqRange & { readonly writes_only?: boolean } = {},
  ): Promise<ExchangeRecord[]> {
    const base = this.keys.run(runId);
    // writes_only filters before the limit applies, as the SQLite backend's WHERE does.
    const texts = await this.bySeq(`${base}:exq`, `${base}:ex`, range.after_seq, range.writes_only ? -1 : range.limit);
    let records = texts.map((t) => toExchange(this.paths, t));
    if (range.writes_only) records = records.filter((r) => r.write);
    if (range.writes_only && range.limit !== undefined && range.limit >= 0) records = records.slice(0, range.limit);
    return records;
  }

  async getEffects(runId: string): Promise<Record<string, unknown>> {
    const all = fieldsOf(await this.redis.call('HGETALL', `${this.keys.run(runId)}:fx`));
    const out: Record<string, unknown> = {};
    for (const [name, text] of Object.entries(all)) out[name] = (JSON.parse(text) as { value: unknown }).value;
    return out;
  }

  async writesInDoubt(runId: string): Promise<ExchangeRecord[]> {
    const base = this.keys.run(runId);
    const keys = (await this.redis.call('SMEMBERS', `${base}:wd`)) as string[];
    if (keys.length === 0) return [];
    const texts = (await this.redis.call('HMGET', `${base}:ex`, ...keys)) as (string | null)[];
    return texts
      .filter((t): t is string => typeof t === 'string')
      .map((t) => toExchange(this.paths, t))
      .sort((a, b) => a.seq - b.seq);
  }

  async dropReadAnswers(runId: string): Promise<number> {
    const base = this.keys.run(runId);
    if (!(await this.readRun(runId))) throw new RecipeError('J001', { runId, journal: this.where() });
    const all = fieldsOf(await this.redis.call('HGETALL', `${base}:ex`));
    let dropped = 0;
    for (const [key, text] of Object.entries(all)) {
      const stored = JSON.parse(text) as { write?: boolean; answer?: string | null };
      if (stored.write === true || stored.answer === null || stored.answer === undefined) continue;
      await this.redis.call('HSET', `${base}:ex`, key, JSON.stringify({ ...stored, answer: null }));
      dropped++;
    }
    return dropped;
  }

  async requestCancel(runId: string, reason: string | null, at: number): Promise<CancelRequest> {
    const k = await this.readRun(runId);
    if (!k) throw new RecipeError('J001', { runId, journal: this.where() });
    const status = statusOf(k);
    if (status !== 'running') throw new RecipeError('J020', { runId, status });
    const request: CancelRequest = { reason, requested_at: at, attempt: Number(k.run.attempts) };
    // A field of the run's hash: pruned with it; the attempt it names keeps a later resume from seeing it.
    await this.redis.call('HSET', this.keys.run(runId), 'cancel', JSON.stringify(request));
    return request;
  }

  async prune(before: number, limit = Infinity): Promise<number> {
    // Runs that started before the cutoff are the only ones that can have ended before it.
    const ids = (await this.redis.call('ZRANGEBYSCORE', this.keys.runs, '-inf', `(${before}`)) as string[];
    let pruned = 0;
    for (const id of ids) {
      const k = await this.readRun(id);
      if (!k) continue;
      const ended = k.run.ended_at ? Number(k.run.ended_at) : null;
      const prunable = ended !== null ? ended < before : statusOf(k) === 'interrupted';
      if (!prunable) continue;
      if (pruned >= limit) break;
      await this.redis.call('DEL', ...this.keys.all(id));
      await this.redis.call('ZREM', this.keys.runs, id);
      pruned++;
    }
    return pruned;
  }

  async close(): Promise<void> {
    for (const j of [...this.open]) await j.release();
    await this.options.onClose?.();
  }

  private held(lease: Lease, runId: string, attempt: number, resuming: boolean, part?: string): RedisRunJournal {
    lease.keep();
    const journal = new RedisRunJournal(this.owner(), lease, runId, attempt, resuming, part);
    this.open.add(journal);
    return journal;
  }

  private owner(): RedisRunOwner {
    return {
      redis: this.redis,
      keys: this.keys,
      paths: this.paths,
      letGo: (journal) => this.open.delete(journal),
    };
  }

  /** A run's hashes and whether anyone holds it now; undefined when there is no such run. */
  private async readRun(runId: string): Promise<RunKeys | undefined> {
    const base = this.keys.run(runId);
    const [run, att, parts, held] = await Promise.all([
      this.redis.call('HGETALL', base),
      this.redis.call('HGETALL', `${base}:att`),
      this.redis.call('HGETALL', `${base}:parts`),
      this.redis.call('EXISTS', this.keys.lease(runId)),
    ]);
    const fields = fieldsOf(run);
    if (fields.run_id === undefined) return undefined;
    return { run: fields, att: fieldsOf(att), parts: fieldsOf(parts), held: Number(held) === 1 };
  }

  /** Values of `hash` for the members of the sorted set `index` with a seq past `after`, in seq order. */
  private async bySeq(index: string, hash: string, after = 0, limit = -1): Promise<string[]> {
    const members = (await this.redis.call(
      'ZRANGEBYSCORE',
      index,
      `(${after}`,
      '+inf',
      'LIMIT',
      0,
      limit < 0 ? -1 : limit,
    )) as string[];
    if (members.length === 0) return [];
    const texts = (await this.redis.call('HMGET', hash, ...members)) as (string | null)[];
    return texts.filter((t): t is string => typeof t === 'string');
  }

  private async script(run: () => Promise<unknown>): Promise<unknown> {
    try {
      return await run();
    } catch (err) {
      throw new RecipeError('J007', { journal: this.where(), reason: (err as Error).message }, undefined, {
        cause: err,
      });
    }
  }

  private where(): string {
    return `redis (${this.keys.prefix})`;
  }

  private holder(): string {
    return JSON.stringify({
      worker: this.options.holderName ?? `${hostname()}:${process.pid}`,
      pid: process.pid,
      host: hostname(),
      since: new Date().toISOString(),
    });
  }
}

function describeHolder(text: string | null): string {
  if (!text) return 'another worker';
  const h = JSON.parse(text) as { worker?: string; since?: string };
  return `worker ${h.worker ?? '?'} since ${h.since ?? '?'}`;
}
