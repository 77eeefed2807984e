import { isWriteAction } from '../client/index.js';
import type { CassettePlayer, CassetteRecorder } from './cassette.js';
import { classify } from './exchange.js';
import type { Answer, OutgoingRequest, TrafficPolicy } from './interceptor.js';
import type { MockSet } from './mock-rules.js';
import type { TokenCache } from './token-cache.js';

/** A write the service (or a mock) accepted, as the case's `writes` expectation sees it. */
export interface WriteRecord {
  readonly entity: string;
  readonly action: string;
  readonly params: unknown;
}

/** Where one case's requests go besides the service: shared token answers, its mocks, its cassette. */
export interface CaseTrafficOptions {
  readonly tokens?: TokenCache;
  /** The template the case's data comes from (tokens are per template). */
  readonly data?: string;
  readonly mocks?: MockSet;
  readonly player?: CassettePlayer;
  readonly recorder?: CassetteRecorder;
  readonly now: () => number;
}

/**
 * The traffic policy of one case: answers from the cassette, then the mocks, then cached tokens; lets the
 * rest through to the service; and keeps the writes that were accepted, in the order they were sent.
 */
export class CaseTraffic implements TrafficPolicy {
  private sent = 0;
  private readonly order = new WeakMap<OutgoingRequest, number>();
  private readonly accepted: { seq: number; write: WriteRecord }[] = [];

  constructor(private readonly options: CaseTrafficOptions) {}

  async answer(req: OutgoingRequest): Promise<Answer | undefined> {
    this.order.set(req, this.sent++);
    const { player, mocks, tokens } = this.options;
    if (player) return player.answer(req);
    const kind = classify(req);
    if (kind.kind === 'execute' && mocks && !mocks.empty) {
      const mocked = await mocks.answer(kind.entity, kind.action, kind.params);
      if (mocked)
        return { status: mocked.status, headers: mocked.headers, body: Buffer.from(JSON.stringify(mocked.body)) };
    }
    if (kind.kind === 'token') return tokens?.get(req, this.options.data ?? '', this.options.now());
    return undefined;
  }

  completed(req: OutgoingRequest, res: Answer, forwarded: boolean): void {
    const kind = classify(req);
    if (forwarded && kind.kind === 'token') this.options.tokens?.put(req, this.options.data ?? '', res);
    if (forwarded) this.options.recorder?.record(req, res);
    if (kind.kind === 'execute' && isWriteAction(kind.entity, kind.action) && res.status >= 200 && res.status < 300)
      this.accepted.push({
        seq: this.order.get(req) ?? this.sent,
        write: { entity: kind.entity, action: kind.action, params: kind.params },
      });
  }

  /** The accepted writes in the order they were sent. */
  writes(): WriteRecord[] {
    return [...this.accepted].sort((a, b) => a.seq - b.seq).map((w) => w.write);
  }
}
