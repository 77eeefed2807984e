import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { RunningService } from '../service/start.js';
import { SqliteCopier } from '../service/store/sqlite-files.js';
import type { TestClock } from './clock.js';

/**
 * The application every template database holds: the embedded service of a test run is private to it, so fixed
 * credentials are fine, and a token serves every case that starts from the same template (see TokenCache).
 */
export const TEST_CREDENTIALS = { clientId: 'recipe-test', clientSecret: 'recipe-test-local-only-secret' } as const;

/**
 * One embedded service of a test process, on its own database file, on the case clock. Between cases its data
 * is reset by copying a template database over its file (SQLite's backup API, while it runs); the data a case
 * left can be kept as a snapshot for the cases that run `after` it.
 */
export class ServiceSlot {
  /** What the database holds now: a template's path or a snapshot's, or undefined after a case changed it. */
  private holds: string | undefined;
  private snapshots = 0;
  private readonly copier = new SqliteCopier();

  private constructor(
    private readonly service: RunningService,
    private readonly file: string,
    private readonly dir: string,
  ) {}

  /**
   * Starts a service on a copy of `initial` (any template). Restoring another template later brings its own
   * organization under the same credentials; the service keeps the signing key it loaded at start, which signs
   * and checks every token it issues.
   */
  static async start(dir: string, initial: string, clock: TestClock): Promise<ServiceSlot> {
    const file = path.join(dir, 'service.db');
    copyFileSync(initial, file);
    const { startService } = await import('../service/start.js');
    const service = await startService({
      db: file,
      seed: 'none',
      ...TEST_CREDENTIALS,
      now: () => new Date(clock.now()),
      logLevel: 'silent',
    });
    const slot = new ServiceSlot(service, file, dir);
    slot.holds = initial;
    return slot;
  }

  get url(): string {
    return this.service.url;
  }

  /** Puts the data of a template or snapshot in place (nothing to do when it is still there, untouched). */
  async restore(from: string): Promise<void> {
    if (this.holds === from) return;
    await this.settle();
    await this.copier.copy(from, this.file);
    this.holds = from;
  }

  /** Keeps the current data as a snapshot file; returns its path. */
  async snapshot(): Promise<string> {
    await this.settle();
    const to = path.join(this.dir, `snapshot-${++this.snapshots}.db`);
    await this.copier.copy(this.file, to);
    this.copier.release(this.file);
    return to;
  }

  /** A case ran: the data may differ from what was restored. */
  touched(): void {
    this.holds = undefined;
  }

  async close(): Promise<void> {
    this.copier.close();
    await this.service.close();
  }

  /** Lets the context store apply the writes it has queued, so nothing writes while the file is copied. */
  private async settle(): Promise<void> {
    await this.service.app.contextStore.drain();
  }
}
