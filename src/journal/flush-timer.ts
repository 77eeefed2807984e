/**
 * When a journal backend hands its pending appends over, short of a full batch: at the end of the current
 * turn of the event loop (by then the requests of this turn have been sent), or after a delay, whichever
 * was asked first; one flush at a time. Both timers are unref'd: a pending flush never keeps a process alive
 * (finishing a run flushes). Shared by the SQLite and Redis backends.
 */
export class FlushTimer {
  private timer: NodeJS.Timeout | null = null;
  private idle: NodeJS.Immediate | null = null;

  constructor(
    private readonly flush: () => void,
    private readonly delayMs: number,
  ) {}

  /** Flush at the end of this turn of the event loop. */
  atIdle(): void {
    if (this.idle) return;
    this.idle = setImmediate(() => {
      this.idle = null;
      this.flush();
    });
    this.idle.unref();
  }

  /** Flush after the delay, unless a flush is already due. */
  later(): void {
    if (this.timer || this.idle) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.delayMs);
    this.timer.unref();
  }

  /** Forget what was due (the caller is flushing now, or stopping). */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.idle) clearImmediate(this.idle);
    this.idle = null;
  }
}
