import { spawn, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';

/**
 * `recipe serve` and `recipe` runs as child processes against one service database and one journal: what the
 * outage and cancel tests stop, restart and count at. The built CLI (bin/recipe.js → dist/) is used.
 */
export const RECIPE_BIN = new URL('../../bin/recipe.js', import.meta.url).pathname;
export const CLIENT = { id: 'ops-app', secret: 'ops-secret-0123456789' };

export interface ProcResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Proc {
  readonly child: ChildProcess;
  readonly done: Promise<ProcResult>;
  /** What it wrote to stderr so far. */
  stderr(): string;
}

/** Where a run and its service live: a folder, the service's database, the journal, and the service's URL. */
export class Bench {
  url = '';
  port = 0;
  private service: Proc | undefined;

  constructor(
    readonly dir: string,
    readonly serviceDb: string,
    readonly journal: string,
  ) {}

  /** `recipe ARGS` in the folder, pointed at the service and the journal. */
  recipe(args: readonly string[], env: Record<string, string> = {}): Proc {
    const clean: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
    for (const k of Object.keys(clean))
      if (k.startsWith('CONNECTOR_') || k.startsWith('RECIPE_') || k.startsWith('OTEL_')) delete clean[k];
    const child = spawn(process.execPath, [RECIPE_BIN, ...args], {
      env: {
        ...clean,
        CONNECTOR_API_URL: this.url,
        CONNECTOR_CLIENT_ID: CLIENT.id,
        CONNECTOR_CLIENT_SECRET: CLIENT.secret,
        RECIPE_JOURNAL: this.journal,
        ...env,
      },
      cwd: this.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const done = new Promise<ProcResult>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
    return { child, done, stderr: () => stderr };
  }

  /** Starts `recipe serve` on the service database: a free port the first time, then the same port again. */
  async startService(): Promise<void> {
    const proc = this.recipe([
      'serve',
      '--db',
      this.serviceDb,
      '--port',
      String(this.port),
      '--seed-size',
      '20',
      '--client-id',
      CLIENT.id,
      '--client-secret',
      CLIENT.secret,
    ]);
    this.service = proc;
    const listening = await listeningUrl(
      proc.child,
      proc.done.then((r) => `exited ${r.code}: ${r.stderr}`),
    );
    this.url = listening;
    this.port = Number(new URL(listening).port);
  }

  /** Stops the service at once (SIGKILL: connections reset, requests in flight lost). */
  async stopService(): Promise<void> {
    const s = this.service;
    if (!s || s.child.exitCode !== null || s.child.signalCode !== null) return;
    s.child.kill('SIGKILL');
    await s.done;
  }

  /** Journaled writes of a run so far (0 before the journal exists). */
  writesJournaled(runId: string): number {
    let reader: Database.Database | undefined;
    try {
      reader = new Database(this.journal, { readonly: true, fileMustExist: true, timeout: 1000 });
      const row = reader.prepare('SELECT count(*) AS n FROM exchanges WHERE run_id = ? AND write = 1').get(runId);
      return (row as { n: number }).n;
    } catch {
      return 0;
    } finally {
      reader?.close();
    }
  }

  /** Waits until the run has journaled `target` writes, or `ended()`. */
  async untilWrites(runId: string, target: number, ended: () => boolean): Promise<number> {
    for (;;) {
      const n = this.writesJournaled(runId);
      if (n >= target || ended()) return n;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** body → how many notes have it, for the notes whose body starts with `tag `, counted at the service. */
  notesOf(tag: string): Map<string, number> {
    return notesAt(this.serviceDb, `${tag} `);
  }
}

/**
 * The URL `recipe serve` prints once it listens (read from its stdout); rejects with `exited`'s text when the
 * process ends first.
 */
export function listeningUrl(child: ChildProcess, exited: Promise<string>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    void exited.then((why) => reject(new Error(`recipe serve ${why}`)));
  });
}

/**
 * body → how many notes have it, for the notes whose body starts with `prefix`, read from the service's database
 * (`recipe serve --db`): how a test counts the writes that reached the service.
 */
export function notesAt(serviceDb: string, prefix: string): Map<string, number> {
  const db = new Database(serviceDb, { readonly: true, timeout: 5000 });
  try {
    const rows = db
      .prepare(
        `SELECT json_extract(properties, '$.hs_note_body') AS body, count(*) AS n FROM crm_records
         WHERE object_type = 'notes' AND archived = 0 AND json_extract(properties, '$.hs_note_body') LIKE ?
         GROUP BY body`,
      )
      .all(`${prefix}%`) as { body: string; n: number }[];
    return new Map(rows.map((r) => [r.body, r.n]));
  } finally {
    db.close();
  }
}

/** A recipe that writes `count` notes (foreach, concurrency 4), each body "TAG N". */
export function notesRecipe(count: number): string {
  return `version: 1
name: many-notes
inputs:
  tag: { type: string, required: true }
connector: { workspace: default, definition: CRM }
steps:
  - id: notes
    foreach: "\${ [1..${count}] }"
    as: n
    concurrency: 4
    steps:
      - id: note
        execute:
          entity: notes
          action: create
          params:
            properties:
              hs_note_body: "\${ $inputs.tag & ' ' & $string($n) }"
              hs_timestamp: "\${ $run.started_at }"
    collect: "\${ $note.properties.hs_note_body }"
outputs:
  count: "\${ $count($notes) }"
`;
}
