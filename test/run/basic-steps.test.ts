import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, executes, json, startFaultServer, type FaultServer } from '../client/fault-server.js';
import type { ConnectorClient } from '../../src/client/index.js';
import { runYaml, tempDir, testClient } from './helpers.js';

let server: FaultServer;
let client: ConnectorClient;
const creds = { clientId: 'id-1', clientSecret: 'shh-secret-1' };

beforeAll(async () => {
  server = await startFaultServer();
  client = testClient(server.url, creds);
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe('execute', () => {
  it('sends entity/action/params, outputs the result, binds $response in assign, counts requests', async () => {
    server.handle = (req, res) => json(res, 200, envelope({ id: '42', echo: req.body }));
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: exec
connector: { id: c-9 }
inputs:
  id: { type: string, required: true }
steps:
  - id: contact
    execute: { entity: contacts, action: get, params: { contactId: "\${ $inputs.id }" } }
    assign: { took: "\${ $response.execution_metadata.execution_time_ms }" }
outputs:
  id: "\${ $contact.id }"
  sent: "\${ $contact.echo }"
  took: "\${ $took }"
`,
      client,
      { inputs: { id: '42' } },
    );
    expect(report.status).toBe('ok');
    expect(report.outputs).toEqual({
      id: '42',
      sent: { entity: 'contacts', action: 'get', params: { contactId: '42' } },
      took: 1,
    });
    expect(server.seen.at(-1)?.path).toBe('/api/v1/integrations/connectors/c-9/execute');
    expect(report.steps[0]).toMatchObject({ id: 'contact', requests: 1, retries: 0 });
  });

  it('step retry policy and retries are counted per step', async () => {
    let n = 0;
    server.handle = (_req, res) => (++n % 2 === 1 ? json(res, 503, {}) : json(res, 200, envelope([])));
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: retries
connector: { id: c-9 }
steps:
  - id: a
    execute: { entity: contacts, action: list }
    retry: { max_attempts: 2, initial_delay_ms: 1 }
`,
      client,
    );
    expect(report.status).toBe('ok');
    expect(report.steps[0]).toMatchObject({ requests: 2, retries: 1 });
    expect(report.retries).toBe(1);
  });

  it('secrets are sent but masked in logs, outputs and errors', async () => {
    server.handle = (req, res) => json(res, 400, { message: `bad key ${JSON.stringify(req.body)}` });
    const { report, logs } = await runYaml(
      tempDir(),
      `version: 1
name: secrets
connector: { id: c-9 }
secrets: [API_KEY]
steps:
  - log: "key is \${ $secrets.API_KEY }"
  - id: r
    execute: { entity: contacts, action: create, params: { properties: { email: "\${ $secrets.API_KEY }" } } }
    on_error: continue
outputs:
  leaked: "\${ $secrets.API_KEY }"
  err: "\${ $r.error.message }"
`,
      client,
      { env: { API_KEY: 'sk-very-secret-123' } },
    );
    const text = JSON.stringify(report) + logs.join('\n');
    expect(text).not.toContain('sk-very-secret-123');
    expect(report.outputs.leaked).toBe('***');
    expect(logs).toContain('info: key is ***');
    expect(String(report.outputs.err)).toContain('***');
    expect(JSON.stringify(executes(server).at(-1)?.body)).toContain('sk-very-secret-123');
  });

  it('timeout_ms fails a step that takes too long (X005)', async () => {
    server.handle = () => undefined; // never answers
    const { report } = await runYaml(
      tempDir(),
      `version: 1
name: slow
connector: { id: c-9 }
steps:
  - execute: { entity: contacts, action: list }
    timeout_ms: 50
`,
      client,
      {
        sleep: (ms, signal) =>
          new Promise((resolve, reject) => {
            const t = setTimeout(resolve, ms);
            signal?.addEventListener('abort', () => {
              clearTimeout(t);
              reject(new Error('aborted'));
            });
          }),
      },
    );
    expect(report.error?.code).toBe('X005');
  });

  it('the request budget guardrail stops a run that sends too many requests (X014)', async () => {
    let n = 0;
    server.handle = (req, res) =>
      req.path.endsWith('/inspect')
        ? json(res, 200, {})
        : json(res, 200, envelope([{ id: String(n) }], { has_next_page: true, end_cursor: `c${n++}` }));
    const { report } = await runYaml(
      tempDir(),
      `version: 1\nname: budget\nconnector: { id: c-9 }\nsteps:\n  - paginate: { entity: things, action: list }\n`,
      client,
      { maxRequests: 5 },
    );
    expect(report.error).toMatchObject({ code: 'X014', line: 5 });
    expect(report.requests).toBe(6);
  });
});
