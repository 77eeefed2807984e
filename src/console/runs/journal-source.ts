import { existsSync } from 'node:fs';
import type { JournalReader } from '../../journal/index.js';

/** Where the runs pages read runs: a journal file, or (later) a fleet's shared journal. */
export interface JournalSource {
  /** Shown on the pages: a path, or a URL without credentials. */
  readonly label: string;
  /** The reader; rejects with why there is none (yet). The pages say so, and ask again on the next visit. */
  open(): Promise<JournalReader>;
}

/**
 * A journal file, opened read-only on the first visit of a runs page rather than at start: the file may
 * not exist until the first `recipe run`, and the SQLite module is then loaded only when needed.
 */
export function journalFileSource(path: string): JournalSource {
  return {
    label: path,
    async open() {
      if (!existsSync(path))
        throw new Error(`there is no run journal at ${path} yet: \`recipe run\` creates it with the first run`);
      const { openJournalReader } = await import('../../journal/index.js');
      return openJournalReader(path);
    },
  };
}

/** One reader for the console's life, opened on first use; a failed open is tried again next time. */
export class JournalAccess {
  private reader: Promise<JournalReader> | undefined;

  constructor(readonly source: JournalSource) {}

  /** The reader, or the reason there is none. */
  async get(): Promise<{ reader: JournalReader } | { reason: string }> {
    this.reader ??= this.source.open();
    try {
      return { reader: await this.reader };
    } catch (err) {
      this.reader = undefined;
      return { reason: (err as Error).message };
    }
  }

  async close(): Promise<void> {
    const r = this.reader;
    this.reader = undefined;
    await (await r?.catch(() => undefined))?.close();
  }
}
