import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { copyRecipes, lineOf, recipe } from './helpers.js';

/**
 * `recipe test` keeps http steps off the network: a mock answers them and `expect.writes` lists them with the
 * connector writes; without a mock the case fails with T012 and a real listener at the URL's port sees no
 * connection at all; --allow-network (or `network: allow`) lets the request through to it.
 */
let listener: Server;
let port: number;
let connections = 0;
const received: { method: string; url: string; body: string }[] = [];
let dir: string;

beforeAll(async () => {
  listener = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"from":"listener"}');
    });
  });
  listener.on('connection', () => connections++);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
  dir = copyRecipes();
  // A note in the CRM, then the alert to the webhook: one connector write and one http write, in this order.
  writeFileSync(
    path.join(dir, 'alert.yaml'),
    `version: 1
name: alert
connector: { definition: CRM }
inputs:
  deal: { type: string, default: Big deal }
steps:
  - id: note
    execute:
      entity: notes
      action: create
      params: { properties: { hs_note_body: "alerting about \${ $inputs.deal }" } }
  - id: notify
    http:
      method: POST
      url: http://127.0.0.1:${port}/hooks/alert
      headers: { x-source: recipe }
      json: { text: "\${ $inputs.deal } needs a look", note: "\${ $note.id }" }
  - id: status
    http: { method: GET, url: "http://127.0.0.1:${port}/status" }
outputs:
  posted: "\${ $notify.ok }"
  status: "\${ $status.state }"
`,
  );
});

afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

beforeEach(() => {
  connections = 0;
  received.length = 0;
});

const cwd = () => path.dirname(dir);
const file = (name: string) => path.join(dir, name);

const MOCKED = (extra = '') => `recipe: alert.yaml
fixtures: crm-small.fixtures.yaml${extra}
cases:
  - name: posts the alert
    mock:
      - http:
          method: POST
          url: http://127.0.0.1:${port}/hooks/*
          headers: { X-Source: recipe }
        respond: { status: 200, body: { ok: true } }
      - http: GET http://127.0.0.1:${port}/status
        respond:
          - { status: 503, body: busy }
          - { status: 200, body: { state: green } }
    expect:
      outputs: { posted: true, status: green }
      requests: { min: 4 }
      writes:
        - { entity: notes, action: create, params: { properties: { hs_note_body: "alerting about Big deal" } } }
        - http:
            method: POST
            url: http://127.0.0.1:${port}/hooks/alert
            headers: { x-source: recipe, content-type: application/json }
            body: { text: "Big deal needs a look", note: "\${ $type($actual) = 'string' }" }
`;

describe('recipe test: http steps are hermetic', () => {
  it('answers http steps from mocks (a 503 then 200 sequence is retried) and asserts the posted JSON in expect.writes', async () => {
    writeFileSync(file('alert.test.yaml'), MOCKED());
    const res = await recipe(['test', file('alert.test.yaml'), '--reporter', 'json'], { cwd: cwd() });
    expect(res.stderr).toContain('1 passed, 0 failed');
    const report = JSON.parse(res.stdout) as {
      cases: { status: string; failures: unknown[]; writes: unknown[]; run: { requests: number } }[];
    };
    expect(report.cases[0]?.failures).toEqual([]);
    expect(report.cases[0]?.status).toBe('passed');
    expect(report.cases[0]?.writes[1]).toEqual({
      http: {
        method: 'POST',
        url: `http://127.0.0.1:${port}/hooks/alert`,
        headers: { 'x-source': 'recipe', 'content-type': 'application/json' },
        body: { text: 'Big deal needs a look', note: expect.any(String) as unknown },
      },
    });
    expect(res.code).toBe(0);
    expect(connections).toBe(0);
  });

  it('fails a case whose posted JSON differs, naming the field of the http write', async () => {
    writeFileSync(file('alert.test.yaml'), MOCKED().replace('"Big deal needs a look"', '"Small deal"'));
    const res = await recipe(['test', file('alert.test.yaml')], { cwd: cwd() });
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('expect.writes[1].http.body.text');
    expect(connections).toBe(0);
  });

  it('without a mock, fails with T012 naming the step, the method and the URL, and opens no connection', async () => {
    const text = `recipe: alert.yaml
fixtures: crm-small.fixtures.yaml
cases:
  - name: posts the alert
    expect: { outputs: { posted: true } }
`;
    writeFileSync(file('alert.test.yaml'), text);
    const res = await recipe(['test', file('alert.test.yaml')], { cwd: cwd() });
    expect(res.code).toBe(1);
    const line = lineOf(readFileSync(file('alert.yaml'), 'utf8'), '- id: notify');
    expect(res.stdout).toContain(
      `the run failed at recipes/alert.yaml:${line}:5: T012 notify: POST http://127.0.0.1:${port}/hooks/alert was not sent: \`recipe test\` keeps the network off and no mock answers it`,
    );
    expect(connections).toBe(0);
    expect(received).toEqual([]);
  });

  it('--allow-network lets the unmocked requests reach the listener', async () => {
    writeFileSync(
      file('alert.test.yaml'),
      `recipe: alert.yaml
fixtures: crm-small.fixtures.yaml
cases:
  - name: posts the alert
    expect:
      outputs: { posted: true }
      writes:
        - { entity: notes }
        - http: { method: POST, body: { text: Big deal needs a look } }
`,
    );
    const res = await recipe(['test', file('alert.test.yaml'), '--allow-network'], { cwd: cwd() });
    expect(res.stdout).toContain('1 passed, 0 failed');
    expect(res.code).toBe(0);
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /hooks/alert', 'GET /status']);
    expect(JSON.parse(received[0]?.body ?? '')).toMatchObject({ text: 'Big deal needs a look' });
    expect(connections).toBeGreaterThan(0);
  });

  it('network: allow in the test file opts in as the flag does; a case can turn it off again', async () => {
    writeFileSync(
      file('alert.test.yaml'),
      `recipe: alert.yaml
fixtures: crm-small.fixtures.yaml
network: allow
cases:
  - name: reaches the listener
    expect: { outputs: { posted: true } }
  - name: stays offline
    network: off
    expect: { error: T012 }
`,
    );
    const res = await recipe(['test', file('alert.test.yaml')], { cwd: cwd() });
    expect(res.stdout).toContain('2 passed, 0 failed');
    expect(res.code).toBe(0);
    expect(received.map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it('rejects connector answer fields in an http mock (T013) at their line', async () => {
    writeFileSync(
      file('alert.test.yaml'),
      `recipe: alert.yaml
fixtures: crm-small.fixtures.yaml
cases:
  - name: bad mock
    mock:
      - http: POST http://127.0.0.1:${port}/hooks/alert
        respond: { result: { ok: true } }
`,
    );
    const res = await recipe(['test', file('alert.test.yaml')], { cwd: cwd() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'recipes/alert.test.yaml:7:20: T013 an http mock answers with status, headers and body: "result" belongs to connector mocks (entity:)',
    );
  });
});
