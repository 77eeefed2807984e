import { HEARTBEAT_MS, type CurrentJob, type FleetRegistry, type WorkerRecord } from './registry.js';

/**
 * A worker's side of the fleet's registry (registry.ts: `recipe fleet status`, the console): the jobs in hand,
 * written at once when they change and renewed every HEARTBEAT_MS. A failed write is logged and tried again at
 * the next beat (the store may be restarting).
 */
export class WorkerHeartbeat {
  private readonly current = new Map<string, CurrentJob>();
  private timer: NodeJS.Timeout | undefined;
  private readonly startedAt = Date.now();
  /**
   * Writes go one after another: on a pool (PostgreSQL) two at once could commit out of order and leave an
   * older list of jobs in hand; and none is written after stop() removed the record.
   */
  private writing: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly registry: FleetRegistry,
    private readonly base: Omit<WorkerRecord, 'started_at' | 'heartbeat_at' | 'current'>,
    private readonly log: (line: string) => void,
  ) {}

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  took(job: CurrentJob): void {
    this.current.set(job.job_id, job);
    void this.beat();
  }

  released(jobId: string): void {
    if (this.current.delete(jobId)) void this.beat();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    // A write under way ends before the removal, but a store that is down does not hold the shutdown up.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.writing, new Promise<void>((r) => (timer = setTimeout(r, 2000)))]);
    clearTimeout(timer);
    await this.registry.removeWorker(this.base.queue, this.base.id).catch(() => undefined);
  }

  /** Writes the record now, after any write under way (each write carries the jobs in hand when it starts). */
  private beat(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  private async write(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.registry.writeWorker({
        ...this.base,
        started_at: this.startedAt,
        heartbeat_at: Date.now(),
        current: [...this.current.values()],
      });
    } catch (err) {
      this.log(`heartbeat not written: ${(err as Error).message}`);
    }
  }
}
