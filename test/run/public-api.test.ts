import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ConnectorClient, openJournal, runRecipe, startService } from '../../src/index.js';

it('the public API loads, checks and runs a recipe against a service it starts', async () => {
  const service = await startService({ seed: 'demo', logLevel: 'silent' });
  const client = new ConnectorClient({ baseUrl: service.url, ...service.credentials, workspace: 'default' });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-api-'));
    const file = join(dir, 'r.yaml');
    writeFileSync(
      file,
      `version: 1\nname: api\nconnector: { definition: CRM }\ninputs:\n  limit: { type: integer, default: 5 }\nsteps:\n  - id: c\n    execute: { entity: contacts, action: list, params: { limit: "\${ $inputs.limit }" } }\noutputs:\n  n: "\${ $count($c) }"\n`,
    );
    const ok = await runRecipe(file, { client, inputs: { limit: '3' } });
    expect(ok.report?.status).toBe('ok');
    expect(ok.report?.outputs).toEqual({ n: 3 });
    const bad = await runRecipe(file, { client, inputs: { limit: 'three' } });
    expect(bad.report).toBeUndefined();
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['I004']);
  } finally {
    await client.close();
    await service.close();
  }
});

it('runRecipe journals a run when given a journal store, under the run id given', async () => {
  const service = await startService({ seed: 'demo', logLevel: 'silent' });
  const client = new ConnectorClient({ baseUrl: service.url, ...service.credentials, workspace: 'default' });
  const dir = mkdtempSync(join(tmpdir(), 'recipe-api-'));
  const store = openJournal(join(dir, 'runs.db'));
  try {
    const file = join(dir, 'r.yaml');
    writeFileSync(
      file,
      `version: 1\nname: journaled\nconnector: { definition: CRM }\nsteps:\n  - id: c\n    execute: { entity: contacts, action: list, params: { limit: 2 } }\noutputs:\n  n: "\${ $count($c) }"\n`,
    );
    const { report } = await runRecipe(file, { client, journal: store, runId: 'api-1' });
    expect(report).toMatchObject({ status: 'ok', run_id: 'api-1', outputs: { n: 2 } });
    const run = await store.getRun('api-1');
    expect(run).toMatchObject({ run_id: 'api-1', recipe: 'journaled', status: 'succeeded' });
    expect((await store.listExchanges('api-1')).map((e) => e.kind)).toContain('execute');
  } finally {
    await store.close();
    await client.close();
    await service.close();
  }
});
