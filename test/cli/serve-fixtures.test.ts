import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { RECIPE_BIN, runCli } from './cli-process.js';

/** `recipe serve --fixtures` serves that dataset alone (issue 12: the documented CI set-up found two CRMs). */
const fixtures = new URL('./fixtures/crm.yaml', import.meta.url).pathname;
const pipelineReport = new URL('../../recipes/pipeline-report.yaml', import.meta.url).pathname;

describe('recipe serve --fixtures', () => {
  it('loads no demo data beside the fixtures, so a {definition: CRM} lookup finds exactly one connector', async () => {
    const child = spawn(
      process.execPath,
      [
        RECIPE_BIN,
        'serve',
        '--db',
        ':memory:',
        '--port',
        '0',
        '--fixtures',
        fixtures,
        '--client-id',
        'ci',
        '--client-secret',
        'ci-secret-123',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', () => reject(new Error(`serve exited: ${out}`)));
      });
      const r = await runCli(['run', pipelineReport, '-q'], {
        env: { CONNECTOR_API_URL: url, CONNECTOR_CLIENT_ID: 'ci', CONNECTOR_CLIENT_SECRET: 'ci-secret-123' },
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('open_deals: 2');
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
