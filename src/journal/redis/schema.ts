/**
 * Where the journal keeps a run in Redis, under one prefix (default `recipe:journal`). A single Redis, not a
 * Cluster: the scripts reach a run's keys from its base name.
 *   <p>:runs                 sorted set: run ids by start time (history, newest first)
 *   <p>:run:<id>             hash: the run's record (status, files, inputs, report, holder, seq counter,
 *                            `cancel`: a `recipe cancel` request {reason, requested_at, attempt}...)
 *   <p>:run:<id>:att         hash: per attempt `<n>` (start), `<n>:end`, `<n>:c` (counters), `<n>:u` (last write)
 *   <p>:run:<id>:ex / :exq   hash call key → exchange (JSON); sorted set call key by seq (latest change)
 *   <p>:run:<id>:st / :stq   hash `<attempt>|<step path>` → step event; sorted set by seq
 *   <p>:run:<id>:fx          hash: effects by name
 *   <p>:run:<id>:wd          set: call keys of writes in doubt
 *   <p>:run:<id>:parts       hash: counters of the parts of a run other workers ran (distributed foreach chunks)
 *   <p>:lease:<id>[:<part>]  string with an expiry: who holds the run (or a part of it) now
 */
export class JournalKeys {
  constructor(readonly prefix: string) {}

  get runs(): string {
    return `${this.prefix}:runs`;
  }

  run(id: string): string {
    return `${this.prefix}:run:${id}`;
  }

  lease(id: string, part?: string): string {
    return part === undefined ? `${this.prefix}:lease:${id}` : `${this.prefix}:lease:${id}:${part}`;
  }

  /** Every key of a run (its leases excepted), for pruning. */
  all(id: string): string[] {
    const base = this.run(id);
    return [base, ...SUFFIXES.map((s) => `${base}${s}`)];
  }
}

export const SUFFIXES = [':att', ':ex', ':exq', ':st', ':stq', ':fx', ':wd', ':parts'] as const;
