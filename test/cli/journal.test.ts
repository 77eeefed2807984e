import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, executes, json, startFaultServer, type FaultServer, type Seen } from '../client/fault-server.js';

/**
 * `recipe run --run-id`, `recipe resume` and `recipe runs` as child processes (dist/, built by `npm run build`)
 * against a connector-API look-alike that ignores Idempotency-Key, with a journal file per test.
 */
const bin = new URL('../../bin/recipe.js', import.meta.url).pathname;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

let server: FaultServer;
let dir: string;
let env: Record<string, string>;

function recipe(args: string[], opts: { onSpawn?: (child: ChildProcess) => void } = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const clean: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
    for (const k of Object.keys(clean)) if (k.startsWith('CONNECTOR_') || k === 'RECIPE_JOURNAL') delete clean[k];
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...clean, ...env },
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    opts.onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const body = (s: Seen) => s.body as { entity: string; action: string; params: Record<string, unknown> };
const creates = () => executes(server).filter((s) => body(s).action === 'create');

/** Notes stored by the look-alike: body → id. */
let stored = new Map<string, string>();
/** When set, a create of this body is taken in and never answered (the run is then killed). */
let swallow: { body: string; seen: () => void } | null = null;

beforeAll(async () => {
  server = await startFaultServer((req, res) => {
    const b = body(req);
    if (req.path.endsWith('/openapi.json')) return json(res, 404, { message: 'no such route' });
    if (b?.entity === 'contacts' && b.action === 'get')
      return json(res, 200, envelope({ id: String(b.params.contactId) }));
    if (b?.entity === 'notes' && b.action === 'create') {
      const text = String((b.params.properties as Record<string, unknown>).hs_note_body);
      // Ignores Idempotency-Key: every create writes (a note the client never hears about, for a swallowed one).
      const id = `n${stored.size + 1}`;
      stored.set(`${text}#${id}`, id);
      if (swallow && swallow.body === text) return swallow.seen();
      return json(res, 200, envelope({ id, properties: { hs_note_body: text } }));
    }
    if (b?.entity === 'notes' && b.action === 'api_search') {
      const text = JSON.stringify(b.params);
      const found = [...stored.entries()].filter(([k]) => text.includes(k.split('#')[0] as string));
      return json(res, 200, envelope(found.map(([k, id]) => ({ id, properties: { hs_note_body: k.split('#')[0] } }))));
    }
    return json(res, 404, { message: 'no handler' });
  });
  env = {
    CONNECTOR_API_URL: server.url,
    CONNECTOR_CLIENT_ID: 'id-1',
    CONNECTOR_CLIENT_SECRET: 'shh-secret-1',
  };
  dir = mkdtempSync(join(tmpdir(), 'recipe-journal-cli-'));
});
afterAll(async () => {
  await server.close();
});

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/**
 * Three notes, one create each. `properties`: more members of the note's properties (flow YAML); `top`: more
 * top-level lines; `inDoubt`: the create's in_doubt field.
 */
const notesRecipe = (o: { inDoubt?: string; properties?: string; top?: string } = {}) => `version: 1
name: three-notes
inputs:
  tag: { type: string, required: true }
${o.top ?? ''}connector: { id: c-1 }
steps:
  - id: notes
    foreach: "\${ [1, 2, 3] }"
    as: n
    steps:
      - id: note
        execute:
          entity: notes
          action: create
          params: { properties: { hs_note_body: "\${ $inputs.tag & '-' & $string($n) }"${o.properties ? `, ${o.properties}` : ''} } }
${o.inDoubt ?? ''}    collect: "\${ $note.id }"
outputs:
  ids: "\${ $notes }"
`;

/** Runs the recipe, kills the child (SIGKILL) while the look-alike holds the answer to the first create. */
async function killedInFirstWrite(file: string, runId: string, tag: string): Promise<Result> {
  let child: ChildProcess | undefined;
  swallow = { body: `${tag}-1`, seen: () => child?.kill('SIGKILL') };
  const r = await recipe(['run', file, '-i', `tag=${tag}`, '--run-id', runId, '--json'], {
    onSpawn: (c) => (child = c),
  });
  swallow = null;
  expect(r.code).toBeNull(); // killed
  return r;
}

describe('the journal from the command line', () => {
  it('`recipe run FILE --run-id X` twice: the second sends nothing and prints the same report', async () => {
    const file = write(
      'one-get.yaml',
      `version: 1
name: one-get
connector: { id: c-1 }
steps:
  - id: c
    execute: { entity: contacts, action: get, params: { contactId: "7" } }
outputs:
  id: "\${ $c.id }"
`,
    );
    const first = await recipe(['run', file, '--run-id', 'ci-42', '--json']);
    expect(first.code).toBe(0);
    const sent = server.seen.length;
    const second = await recipe(['run', file, '--run-id', 'ci-42', '--json']);
    expect(second.code).toBe(0);
    expect(server.seen.length).toBe(sent);
    expect(second.stdout).toBe(first.stdout);
    expect(JSON.parse(first.stdout)).toMatchObject({ status: 'ok', run_id: 'ci-42', outputs: { id: '7' } });
    expect(second.stderr).toContain('already succeeded');

    const list = JSON.parse((await recipe(['runs', '--json'])).stdout) as { run_id: string; status: string }[];
    expect(list.find((r) => r.run_id === 'ci-42')).toMatchObject({ status: 'succeeded', requests: 1, writes: 0 });
    const shown = JSON.parse((await recipe(['runs', 'show', 'ci-42', '--json'])).stdout);
    expect({ ...shown, resumes: undefined }).toEqual({ ...JSON.parse(first.stdout), resumes: undefined });
    expect(shown.resumes).toEqual([]);
  });

  it('an unknown run id is exit 2 for resume and runs show; a bad --run-id is exit 2', async () => {
    expect((await recipe(['resume', 'no-such-run'])).code).toBe(2);
    const shown = await recipe(['runs', 'show', 'no-such-run']);
    expect(shown.code).toBe(2);
    expect(shown.stderr).toContain('J001');
    const bad = await recipe(['run', write('x.yaml', notesRecipe()), '-i', 'tag=x', '--run-id', '../escape']);
    expect(bad.code).toBe(2);
    expect((await recipe(['runs', 'prune', '--older-than', 'soon'])).code).toBe(2);
  });

  it('a write sent but never answered stops the resume (exit 1) with the step, file:line, request and both flags', async () => {
    const file = write('doubt.yaml', notesRecipe());
    await killedInFirstWrite(file, 'doubt-1', 'doubt');
    const runs = JSON.parse((await recipe(['runs', '--status', 'interrupted', '--json'])).stdout) as {
      run_id: string;
    }[];
    expect(runs.map((r) => r.run_id)).toContain('doubt-1');
    const before = creates().length;
    const stopped = await recipe(['resume', 'doubt-1']);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('J004');
    // Paths in diagnostics are relative to the working directory (the file is in it).
    expect(stopped.stderr).toContain(`notes[0].note at ${basename(file)}:11:`);
    expect(stopped.stderr).toContain('POST /api/v1/integrations/connectors/c-1/execute');
    expect(stopped.stderr).toContain('"hs_note_body":"doubt-1"');
    expect(stopped.stderr).toContain("--assume-sent 'notes[0].note' | --assume-not-sent 'notes[0].note'");
    expect(creates().length).toBe(before); // nothing sent
  });

  it('--assume-sent settles it as applied: not sent again, its result null; the rest goes on', async () => {
    const file = write('sent.yaml', notesRecipe());
    await killedInFirstWrite(file, 'doubt-sent', 'sent');
    const before = creates().length;
    const r = await recipe(['resume', 'doubt-sent', '--assume-sent', 'notes[0].note', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ status: 'ok', run_id: 'doubt-sent', attempt: 2 });
    expect(report.outputs.ids[0]).toBeNull();
    expect(
      creates()
        .slice(before)
        .map((s) => body(s).params.properties),
    ).toEqual([{ hs_note_body: 'sent-2' }, { hs_note_body: 'sent-3' }]);
  });

  it('--assume-not-sent settles it as not applied: sent again, once, with the same Idempotency-Key', async () => {
    const file = write('not-sent.yaml', notesRecipe());
    await killedInFirstWrite(file, 'doubt-not', 'not');
    const killedKey = creates().at(-1)?.headers['idempotency-key'];
    // Listed at file:line:col, the one location form (the form `recipe run` prints errors in).
    const shown = await recipe(['runs', 'show', 'doubt-not']);
    expect(shown.stdout).toMatch(/^ {2}notes\[0\]\.note at \S*not-sent\.yaml:\d+:\d+: POST /m);
    const before = creates().length;
    const r = await recipe(['resume', 'doubt-not', '--assume-not-sent', 'notes.note', '--json']);
    expect(r.code).toBe(0);
    const sent = creates().slice(before);
    expect(sent.map((s) => body(s).params.properties)).toEqual([
      { hs_note_body: 'not-1' },
      { hs_note_body: 'not-2' },
      { hs_note_body: 'not-3' },
    ]);
    expect(sent[0]?.headers['idempotency-key']).toBe(killedKey);
    expect(JSON.parse(r.stdout).outputs.ids).toHaveLength(3);
  });

  it("the step's in_doubt lookup settles it: found, the write is not sent again and its result is the record", async () => {
    const file = write(
      'lookup.yaml',
      notesRecipe({
        inDoubt: `        in_doubt:
          lookup:
            entity: notes
            action: api_search
            params: { filter: { eq: { hs_note_body: "\${ $request.params.properties.hs_note_body }" } } }
`,
      }),
    );
    await killedInFirstWrite(file, 'doubt-lookup', 'look');
    const before = creates().length;
    const r = await recipe(['resume', 'doubt-lookup', '--json']);
    expect(r.code).toBe(0);
    expect(creates().slice(before)).toHaveLength(2);
    expect(JSON.parse(r.stdout).outputs.ids[0]).toMatch(/^n\d+$/);
    const show = await recipe(['runs', 'show', 'doubt-lookup']);
    expect(show.stdout).toContain('attempts:');
    expect(show.stdout).toMatch(/2 {2}resume/);
  });

  it('$now() and $millis() read the run clock: one reading per step visit, journaled and replayed on resume', async () => {
    const file = write('stamped.yaml', notesRecipe({ properties: `hs_timestamp: "\${ $now() }"` }));
    await killedInFirstWrite(file, 'stamped-1', 'stamp');
    const stamp = (s: Seen) => (body(s).params.properties as Record<string, unknown>).hs_timestamp;
    const killedStamp = stamp(creates().at(-1) as Seen);
    expect(typeof killedStamp).toBe('string');
    const before = creates().length;
    // The write in doubt is sent again as the same request: the clock reading of its step visit is replayed
    // from the journal (a new reading would be another request: J005).
    const r = await recipe(['resume', 'stamped-1', '--assume-not-sent', 'notes.note', '--json']);
    expect(r.code).toBe(0);
    const sent = creates().slice(before);
    expect(sent).toHaveLength(3);
    expect(stamp(sent[0] as Seen)).toBe(killedStamp);
  });

  it('$random() and $shuffle() draw from a seed per step visit, journaled and replayed on resume', async () => {
    const file = write(
      'chance.yaml',
      notesRecipe({
        properties: `hs_note_luck: "\${ $string($random()) & ' ' & $string($random()) }", hs_note_order: "\${ $join($shuffle(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']), '') }"`,
      }),
    );
    await killedInFirstWrite(file, 'chance-1', 'luck');
    const props = (s: Seen) => body(s).params.properties as Record<string, string>;
    const killed = props(creates().at(-1) as Seen);
    const [first, second] = (killed.hs_note_luck ?? '').split(' ').map(Number);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(1);
    expect(second, 'two draws in one visit differ').not.toBe(first);
    expect([...(killed.hs_note_order ?? '')].sort().join('')).toBe('abcdefgh');
    const before = creates().length;
    // The write in doubt is sent again as the same request (a new draw would be another request: J005).
    const r = await recipe(['resume', 'chance-1', '--assume-not-sent', 'notes.note', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const sent = creates().slice(before).map(props);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toEqual(killed);
    // Other visits draw from seeds of their own.
    expect(sent[1]?.hs_note_luck).not.toBe(killed.hs_note_luck);
  });

  it('an input that held a secret value is journaled masked: the resume asks for it again (J010), then sends it', async () => {
    const file = write('masked.yaml', notesRecipe({ top: 'secrets: [HOOK_TOKEN]\n' }));
    const token = 'hook-4f8a2c9e';
    const tag = `mask-${token}`;
    env.HOOK_TOKEN = token;
    try {
      const killed = await killedInFirstWrite(file, 'masked-1', tag);
      // Said at once, not first at the resume.
      expect(killed.stderr).toContain('input tag held a secret value');
      expect(killed.stderr).not.toContain(token);
      const before = creates().length;
      const missing = await recipe(['resume', 'masked-1', '--assume-not-sent', 'notes.note']);
      expect(missing.code, missing.stderr).toBe(2);
      expect(missing.stderr).toContain('J010');
      expect(missing.stderr).toContain('input "tag" held a secret value');
      expect(missing.stderr).toContain('recipe resume masked-1 -i tag=VALUE');
      expect(missing.stderr).not.toContain(token);
      const other = await recipe(['resume', 'masked-1', '--assume-not-sent', 'notes.note', '-i', 'tag=mask-other']);
      expect(other.code, other.stderr).toBe(2);
      expect(other.stderr).toContain('differs from the one the run started with');
      const notMasked = await recipe(['resume', 'masked-1', '-i', `tag=${tag}`, '-i', 'extra=1']);
      expect(notMasked.code, notMasked.stderr).toBe(2);
      expect(notMasked.stderr).toContain('J008 --input extra');
      // `run --run-id` with the same inputs resumes too: the masked one is compared masked, then goes on to the
      // write in doubt (the look-alike ignores Idempotency-Key), not to J021 "other inputs".
      const rerun = await recipe(['run', file, '-i', `tag=${tag}`, '--run-id', 'masked-1']);
      expect(rerun.code, rerun.stderr).toBe(1);
      expect(rerun.stderr).toContain('J004');
      expect(creates().length, 'nothing sent by the refused resumes').toBe(before);
      const r = await recipe(['resume', 'masked-1', '--assume-not-sent', 'notes.note', '-i', `tag=${tag}`, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const bodies = creates()
        .slice(before)
        .map((s) => (body(s).params.properties as Record<string, unknown>).hs_note_body);
      expect(bodies).toEqual([`${tag}-1`, `${tag}-2`, `${tag}-3`]);
      expect(r.stdout).not.toContain(token);
    } finally {
      delete env.HOOK_TOKEN;
    }
  });

  it('--now pins $now() and $millis(), in steps and in outputs', async () => {
    const file = write(
      'clock.yaml',
      `version: 1
name: clock
steps:
  - id: a
    transform: "\${ {'now': $now(), 'same': $millis() = $toMillis($now())} }"
outputs:
  a: "\${ $a }"
  later: "\${ $millis() >= $toMillis($a.now) }"
`,
    );
    const r = await recipe(['run', file, '--now', '2026-07-15T09:00:00Z', '--no-journal', '--json']);
    expect(r.code).toBe(0);
    const outputs = JSON.parse(r.stdout).outputs;
    // The run's clock starts at the pinned instant and advances in real time (a run takes well under 10 s).
    expect(outputs.a.now).toMatch(/^2026-07-15T09:00:0\d\.\d{3}Z$/);
    expect(outputs).toMatchObject({ a: { same: true }, later: true });
  });

  it('a journaled --now run starts at the pinned instant and ends its duration later', async () => {
    const file = write('pinned.yaml', 'version: 1\nname: pinned\nsteps:\n  - id: a\n    set: { x: 1 }\n');
    const r = await recipe(['run', file, '--now', '2026-07-15T09:00:00Z', '--run-id', 'pinned-1', '--json']);
    expect(r.code).toBe(0);
    const list = JSON.parse((await recipe(['runs', '--json'])).stdout) as Record<string, unknown>[];
    const run = list.find((x) => x.run_id === 'pinned-1') as { started_at: string; ended_at: string };
    expect(run.started_at).toMatch(/^2026-07-15T09:00:0\d\.\d{3}Z$/);
    // Both ends come from the run's clock: not the pinned start and the real end (months apart).
    const ms = Date.parse(run.ended_at) - Date.parse(run.started_at);
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(ms).toBeLessThan(60_000);
  });

  it('prunes runs older than a given age', async () => {
    const r = await recipe(['runs', 'prune', '--older-than', '0s']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pruned \d+ runs? older than 0s/);
    expect((await recipe(['runs'])).stdout).toBe('no runs\n');
  });
});
