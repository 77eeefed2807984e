import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startWebhookServer, type WebhookServer } from '../run/webhook-server.js';
import { runCli } from './cli-process.js';

/** The http step through `recipe run`, against a local HTTP server started here. */
const fixtures = new URL('./fixtures/crm.yaml', import.meta.url).pathname;
let hook: WebhookServer;
let dir: string;

beforeAll(async () => {
  hook = await startWebhookServer();
  dir = mkdtempSync(join(tmpdir(), 'recipe-http-'));
});
afterAll(async () => {
  await hook.close();
});

const notify = (url: string): string => `version: 1
name: notify
secrets: [HOOK_TOKEN]
connector: { definition: CRM }
steps:
  - id: deals
    paginate: { entity: deals, action: list, params: { limit: 100 } }
  - id: sent
    http:
      method: POST
      url: "${url}/hooks/deals"
      headers: { Authorization: "Bearer \${ $secrets.HOOK_TOKEN }" }
      json: { text: "\${ $count($deals) } deals" }
outputs:
  sent: "\${ $sent }"
`;

describe('recipe run with an http step', () => {
  it('sends the request; a secret in a header never reaches the report, even when the server echoes it', async () => {
    hook.received = [];
    hook.answer = (req, res) => reply(res, 200, { echoed: req.headers.authorization });
    const file = join(dir, 'notify.yaml');
    writeFileSync(file, notify(hook.url));
    const r = await runCli(['run', file, '--fixtures', fixtures, '--json', '--verbose'], {
      env: { HOOK_TOKEN: 'tok-9d8e7f6a5b' },
    });
    expect(r.code).toBe(0);
    expect(hook.received).toHaveLength(1);
    expect(JSON.parse(hook.received[0]!.body)).toEqual({ text: '3 deals' });
    expect(JSON.parse(r.stdout).outputs.sent).toEqual({ echoed: 'Bearer ***' });
    expect(r.stderr).toMatch(/debug: sent: POST 127\.0\.0\.1:\d+\/hooks\/deals http\.POST → 200/);
    expect(r.stdout + r.stderr).not.toContain('tok-9d8e7f6a5b');
  });

  it('--dry-run lists the POST (text and JSON) and does not send it', async () => {
    hook.received = [];
    const file = join(dir, 'notify-dry.yaml');
    writeFileSync(file, notify(hook.url));
    const env = { HOOK_TOKEN: 'tok-9d8e7f6a5b' };
    const text = await runCli(['run', file, '--fixtures', fixtures, '--dry-run'], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('dry run: 1 write not sent');
    expect(text.stdout).toContain(`  POST ${hook.url}/hooks/deals (step sent, line 8) {"text":"3 deals"}`);
    const json = await runCli(['run', file, '--fixtures', fixtures, '--dry-run', '--json'], { env });
    expect(JSON.parse(json.stdout).dry_run_writes).toEqual([
      {
        step: 'sent',
        line: 8,
        file: expect.stringMatching(/\.yaml$/),
        column: 5,
        kind: 'http',
        method: 'POST',
        url: `${hook.url}/hooks/deals`,
        headers: { authorization: 'Bearer ***', 'content-type': 'application/json' },
        body: { text: '3 deals' },
      },
    ]);
    expect(hook.received).toHaveLength(0);
  });
});
