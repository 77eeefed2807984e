import { describe, expect, it } from 'vitest';
import { abortableSleep, ConnectorClient } from '../../src/client/index.js';
import { startService } from '../../src/service/start.js';
import { runYaml, tempDir } from './helpers.js';

/**
 * The interpreter against the real embedded service, where the service needs options the CLI does not give: a
 * context store held or slowed. (Paging styles and download against it are cases in test/cases/.)
 */
describe('context store readiness', () => {
  it('context_store_not_ready says so and suggests paging with list', async () => {
    const held = await startService({ seed: 'demo', logLevel: 'silent', contextStore: { hold: 'Loading' } });
    const c = new ConnectorClient({ baseUrl: held.url, ...held.credentials, workspace: 'default' });
    try {
      const { report } = await runYaml(
        tempDir(),
        `version: 1\nname: notready\nconnector: { definition: CRM }\nsteps:\n  - execute: { entity: deals, action: context_store_search, params: { query: {} } }\n`,
        c,
      );
      expect(report.error).toMatchObject({ code: 'C008', status: 409, line: 5 });
      expect(report.error?.message).toContain('not ready');
      expect(report.error?.message).toContain('paginate over deals.list');
    } finally {
      await c.close();
      await held.close();
    }
  });

  it('wait_for_context_store waits until the entity is searchable on a connector still indexing', async () => {
    const slow = await startService({
      seed: 'demo',
      logLevel: 'silent',
      contextStore: { batchSize: 50, batchDelayMs: 30 },
    });
    const c = new ConnectorClient({ baseUrl: slow.url, ...slow.credentials, workspace: 'default' });
    try {
      const { report } = await runYaml(
        tempDir(),
        `version: 1\nname: wait\nconnector: { definition: CRM }\nsteps:\n  - id: r\n    execute: { entity: tickets, action: context_store_search, params: { query: {}, limit: 5 }, wait_for_context_store: true }\n    timeout_ms: 60000\noutputs:\n  n: "\${ $count($r.data) }"\n`,
        c,
        { sleep: abortableSleep },
      );
      expect(report.error).toBeUndefined();
      expect(report.outputs.n).toBe(5);
      expect(report.steps[0]!.requests).toBeGreaterThanOrEqual(2);
    } finally {
      await c.close();
      await slow.close();
    }
  });
});
