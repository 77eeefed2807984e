import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConnectorClient, type ClientOptions } from '../../src/client/index.js';
import { envelope, executes, json, startFaultServer, type FaultServer } from './fault-server.js';
import { caught } from './caught.js';

let server: FaultServer;
let client: ConnectorClient;
let sleeps: number[];
let clock: number;

function makeClient(extra: Partial<ClientOptions> = {}): ConnectorClient {
  return new ConnectorClient({
    baseUrl: server.url,
    clientId: 'id-1',
    clientSecret: 'shh-secret-1',
    workspace: 'default',
    deps: {
      now: () => clock,
      random: () => 0.5,
      // Time passes while the client sleeps, as it does for a real one.
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
    },
    ...extra,
  });
}

beforeEach(async () => {
  sleeps = [];
  clock = Date.parse('2026-01-01T00:00:00Z');
  server = await startFaultServer();
  client = makeClient();
});

afterEach(async () => {
  await client.close();
  await server.close();
});

describe('retry policy', () => {
  it('waits for Retry-After (seconds) on 429 and then succeeds', async () => {
    let n = 0;
    server.handle = (_req, res) =>
      ++n === 1
        ? json(res, 429, { message: 'slow down' }, { 'retry-after': '2' })
        : json(res, 200, envelope([{ id: '1' }]));
    const env = await client.execute('c1', { entity: 'contacts', action: 'list' });
    expect(env.result).toEqual([{ id: '1' }]);
    expect(sleeps).toEqual([2000]);
    expect(executes(server)).toHaveLength(2);
    expect(client.stats.retries).toBe(1);
  });

  it('reads Retry-After given as an HTTP date against the injected clock', async () => {
    let n = 0;
    const at = new Date(clock + 7000).toUTCString();
    server.handle = (_req, res) =>
      ++n === 1 ? json(res, 429, {}, { 'retry-after': at }) : json(res, 200, envelope([]));
    await client.execute('c1', { entity: 'contacts', action: 'list' });
    expect(sleeps).toEqual([7000]);
  });

  it('retries 503 with backoff and full jitter from the injected random source', async () => {
    let n = 0;
    server.handle = (_req, res) =>
      ++n <= 2 ? json(res, 503, { message: 'busy' }) : json(res, 200, envelope({ id: '9' }));
    const env = await client.execute('c1', { entity: 'contacts', action: 'get', params: { contactId: '9' } });
    expect(env.result).toEqual({ id: '9' });
    // initial 500 ms, factor 2, random 0.5: 250 then 500.
    expect(sleeps).toEqual([250, 500]);
  });

  it('gives up after max attempts with the last status in the error', async () => {
    server.handle = (_req, res) => json(res, 502, { message: 'bad gateway' });
    const err = await caught(client.execute('c1', { entity: 'deals', action: 'list' }));
    expect(err.code).toBe('C005');
    expect(err.params).toMatchObject({ status: 502, entity: 'deals', action: 'list' });
    expect(executes(server)).toHaveLength(4);
  });

  it('retries a read after a connection reset', async () => {
    let n = 0;
    server.handle = (_req, res) => (++n === 1 ? res.socket?.destroy() : json(res, 200, envelope([])));
    await client.execute('c1', { entity: 'contacts', action: 'list' });
    expect(executes(server)).toHaveLength(2);
  });

  it('does not retry a 400 and carries the service error body', async () => {
    server.handle = (_req, res) =>
      json(res, 400, {
        message: 'bad',
        errors: [
          { field: 'params.limit', message: 'limit must be <= 100', error_code: 'validation_error', details: null },
        ],
      });
    const err = await caught(client.execute('c1', { entity: 'contacts', action: 'list', params: { limit: 500 } }));
    expect(err.code).toBe('C005');
    expect(err.params).toMatchObject({
      status: 400,
      errorCode: 'validation_error',
      field: 'params.limit',
      serviceMessage: 'bad',
    });
    expect(executes(server)).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('never repeats a create after a connection reset (no duplicated write)', async () => {
    server.handle = (_req, res) => res.socket?.destroy();
    const err = await caught(client.execute('c1', { entity: 'tasks', action: 'create', params: { properties: {} } }));
    expect(err.code).toBe('C006');
    expect(executes(server)).toHaveLength(1);
  });

  it('never repeats an update after a 503, but does after a 429', async () => {
    server.handle = (_req, res) => json(res, 503, { message: 'busy' });
    await caught(client.execute('c1', { entity: 'deals', action: 'update', params: { dealId: '1', properties: {} } }));
    expect(executes(server)).toHaveLength(1);
    let n = 0;
    server.handle = (_req, res) =>
      ++n === 1 ? json(res, 429, {}, { 'retry-after': '0' }) : json(res, 200, envelope({ id: '1' }));
    await client.execute('c1', { entity: 'deals', action: 'update', params: { dealId: '1', properties: {} } });
    expect(executes(server)).toHaveLength(3);
  });

  it('retries idempotent association writes after a reset', async () => {
    // The connector's service says the write is idempotent (inspect's actions[].idempotent): the client knows
    // no entity names of its own.
    client.learnActions('c1', {
      actions: [{ entity: 'associations', action: 'create', write: true, idempotent: true }],
    });
    let n = 0;
    server.handle = (_req, res) =>
      ++n === 1 ? res.socket?.destroy() : json(res, 200, envelope({ status: 'COMPLETE' }));
    await client.execute('c1', { entity: 'associations', action: 'create', params: {} });
    expect(executes(server)).toHaveLength(2);
  });

  it('never repeats a write its service did not call idempotent after a reset', async () => {
    server.handle = (_req, res) => res.socket?.destroy();
    const err = await caught(client.execute('c1', { entity: 'associations', action: 'create', params: {} }));
    expect(err.code).toBe('C006');
    expect(executes(server)).toHaveLength(1);
  });

  it('uses a step retry policy instead of the default', async () => {
    server.handle = (_req, res) => json(res, 503, {});
    await caught(
      client.execute(
        'c1',
        { entity: 'contacts', action: 'list' },
        { retry: { maxAttempts: 2, initialDelayMs: 10, maxDelayMs: 10, factor: 1, jitter: false } },
      ),
    );
    expect(executes(server)).toHaveLength(2);
    expect(sleeps).toEqual([10]);
  });

  it('times out a request that gets no answer, then fails with C007', async () => {
    // The token exchange runs under the same timeout: 1 s leaves it room on a loaded machine (at 100 ms it
    // timed out there now and then, and the run failed earlier with C012).
    const slow = makeClient({
      requestTimeoutMs: 1000,
      retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1, factor: 1, jitter: false },
    });
    server.handle = () => undefined; // never answers
    const err = await caught(slow.execute('c1', { entity: 'contacts', action: 'list' }));
    expect(err.code).toBe('C007');
    expect(executes(server)).toHaveLength(2);
    await slow.close();
  });

  it('an aborted signal cancels the call during backoff', async () => {
    const ac = new AbortController();
    const real = makeClient({ deps: { now: () => clock, random: () => 1, sleep: async () => ac.abort() } });
    server.handle = (_req, res) => json(res, 503, {});
    const err = await caught(real.execute('c1', { entity: 'contacts', action: 'list' }, { signal: ac.signal }));
    expect(err.code).toBe('C011');
    expect(err.class).toBe('interrupted');
    expect(executes(server)).toHaveLength(1);
    await real.close();
  });

  it('an aborted signal cancels a request that is waiting for its answer (C011, not a timeout)', async () => {
    const ac = new AbortController();
    const patient = makeClient({ requestTimeoutMs: 60_000 });
    server.handle = () => {
      ac.abort(); // the request has reached the server; no answer will come
    };
    const err = await caught(patient.execute('c1', { entity: 'contacts', action: 'list' }, { signal: ac.signal }));
    expect(err.code).toBe('C011');
    expect(executes(server)).toHaveLength(1);
    await patient.close();
  });

  it('an already aborted signal sends nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    server.handle = (_req, res) => json(res, 200, envelope([]));
    const err = await caught(client.execute('c1', { entity: 'contacts', action: 'list' }, { signal: ac.signal }));
    expect(err.code).toBe('C011');
    expect(executes(server)).toHaveLength(0);
  });
});

describe('token', () => {
  it('is fetched once and shared by concurrent calls', async () => {
    server.handle = (_req, res) => json(res, 200, envelope([]));
    await Promise.all([1, 2, 3].map(() => client.execute('c1', { entity: 'contacts', action: 'list' })));
    expect(server.tokensIssued).toBe(1);
    expect(executes(server).every((s) => s.headers.authorization === 'Bearer tok-1')).toBe(true);
  });

  it('is refreshed on a 401 and the request sent once more (a create is not duplicated)', async () => {
    server.handle = (_req, res) => json(res, 200, envelope({ id: '5' }));
    await client.execute('c1', { entity: 'contacts', action: 'list' });
    server.revoked.add('tok-1');
    const env = await client.execute('c1', { entity: 'tasks', action: 'create', params: { properties: {} } });
    expect(env.result).toEqual({ id: '5' });
    expect(server.tokensIssued).toBe(2);
    // the create reached the handler once: the 401 was answered before it.
    expect(executes(server).filter((s) => s.headers.authorization === 'Bearer tok-2')).toHaveLength(1);
  });

  it('fails with C003 when a fresh token is refused too', async () => {
    server.handle = (_req, res) => json(res, 401, { message: 'organization disabled' });
    const err = await caught(client.execute('c1', { entity: 'contacts', action: 'list' }));
    expect(err.code).toBe('C003');
    expect(err.class).toBe('config');
    expect(server.tokensIssued).toBe(2);
  });

  it('is refreshed before expires_in runs out (injected clock)', async () => {
    server.handle = (_req, res) => json(res, 200, envelope([]));
    await client.execute('c1', { entity: 'contacts', action: 'list' });
    clock += 800_000; // 800 s of 900: still fresh
    await client.execute('c1', { entity: 'contacts', action: 'list' });
    expect(server.tokensIssued).toBe(1);
    clock += 45_000; // 845 s: inside the last minute
    await client.execute('c1', { entity: 'contacts', action: 'list' });
    expect(server.tokensIssued).toBe(2);
    expect(server.revoked.size).toBe(0);
  });

  it('bad credentials are an authentication error (C002, config) that does not contain the secret', async () => {
    const bad = new ConnectorClient({
      baseUrl: server.url,
      clientId: 'id-1',
      clientSecret: 'wrong-secret-xyz',
      workspace: 'default',
    });
    server.handle = (_req, res) => json(res, 200, envelope([]));
    const err = await caught(bad.execute('c1', { entity: 'contacts', action: 'list' }));
    expect(err.code).toBe('C002');
    expect(err.class).toBe('config');
    expect(err.params.status).toBe(401);
    await bad.close();
  });

  it('an unreachable service is a configuration error (C012)', async () => {
    const url = server.url;
    await server.close();
    const lost = new ConnectorClient({
      baseUrl: url,
      clientId: 'id-1',
      clientSecret: 'shh-secret-1',
      workspace: 'default',
      retry: { maxAttempts: 1, initialDelayMs: 1, maxDelayMs: 1, factor: 1, jitter: false },
    });
    const err = await caught(lost.execute('c1', { entity: 'contacts', action: 'list' }));
    expect(err.code).toBe('C012');
    expect(err.class).toBe('config');
    await lost.close();
    server = await startFaultServer();
  });
});

describe('secrets', () => {
  it('masks the client secret and the token in service messages', async () => {
    server.handle = (req, res) =>
      json(res, 400, { message: `you sent shh-secret-1 with ${String(req.headers.authorization)}` });
    const err = await caught(client.execute('c1', { entity: 'contacts', action: 'list' }));
    expect(err.message).not.toContain('shh-secret-1');
    expect(err.message).not.toContain('tok-1');
    expect(err.message).toContain('***');
  });
});

describe('envelope and download', () => {
  it('normalises a null connector_metadata to an object', async () => {
    server.handle = (_req, res) =>
      json(res, 200, { status: 'success', result: [], connector_metadata: null, execution_metadata: null });
    const env = await client.execute('c1', { entity: 'contacts', action: 'list' });
    expect(env.connector_metadata).toEqual({});
  });

  it('rejects a non-JSON answer with C010', async () => {
    server.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>');
    };
    const err = await caught(client.execute('c1', { entity: 'contacts', action: 'list' }));
    expect(err.code).toBe('C010');
  });

  it('download returns bytes, content type and the filename from Content-Disposition', async () => {
    server.handle = (_req, res) => {
      res.writeHead(200, {
        'content-type': 'image/png',
        'content-disposition': `attachment; filename="a b.png"; filename*=UTF-8''r%C3%A9sum%C3%A9.png`,
      });
      res.end(Buffer.from([137, 80, 78, 71]));
    };
    const d = await client.download('c1', { entity: 'files', action: 'download', params: { fileId: '1' } });
    expect([...d.bytes]).toEqual([137, 80, 78, 71]);
    expect(d.contentType).toBe('image/png');
    expect(d.filename).toBe('résumé.png');
  });

  it('download fails on an empty body (C009)', async () => {
    server.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end();
    };
    const err = await caught(client.download('c1', { entity: 'files', action: 'download', params: { fileId: '404' } }));
    expect(err.code).toBe('C009');
  });

  it('context_store_not_ready becomes C008 with a list-based suggestion', async () => {
    server.handle = (_req, res) =>
      json(res, 409, {
        message: 'the context store for deals is Loading',
        errors: [{ field: null, message: 'x', error_code: 'context_store_not_ready', details: null }],
      });
    const err = await caught(
      client.execute('c1', { entity: 'deals', action: 'context_store_search', params: { query: {} } }),
    );
    expect(err.code).toBe('C008');
    expect(err.message).toContain('deals.list');
    expect(err.message).toContain('wait_for_context_store');
  });
});

describe('connector lookup', () => {
  const defs = {
    definitions: [
      { sourceDefinitionId: 'd-crm', name: 'CRM' },
      { sourceDefinitionId: 'd-files', name: 'Files' },
    ],
  };

  it('finds the connector by workspace and definition name, once per client', async () => {
    server.handle = (req, res) => {
      if (req.path.startsWith('/api/v1/integrations/definitions/sources')) return json(res, 200, defs);
      if (req.path.startsWith('/api/v1/integrations/connectors?')) {
        const q = new URL(req.path, 'http://x').searchParams;
        return json(res, 200, {
          data:
            q.get('definition_id') === 'd-crm' && q.get('workspace_name') === 'sales'
              ? [{ id: 'conn-7', name: 'crm' }]
              : [],
        });
      }
      return json(res, 404, {});
    };
    expect(await client.resolveConnector({ workspace: 'sales', definition: 'crm' })).toBe('conn-7');
    expect(await client.resolveConnector({ workspace: 'sales', definition: 'CRM' })).toBe('conn-7');
    expect(server.seen.filter((s) => s.path.startsWith('/api/v1/integrations/connectors?'))).toHaveLength(1);
    expect(await client.resolveConnector({ id: 'given' })).toBe('given');
  });

  it('an unknown workspace is a lookup (configuration) error', async () => {
    server.handle = (req, res) => {
      if (req.path.startsWith('/api/v1/integrations/definitions/sources')) return json(res, 200, defs);
      return json(res, 404, {
        message: 'workspace "sales" not found',
        errors: [{ field: 'workspace_name', message: 'x', error_code: 'not_found', details: null }],
      });
    };
    const err = await caught(client.resolveConnector({ workspace: 'sales', definition: 'CRM' }));
    expect(err.code).toBe('C004');
    expect(err.class).toBe('config');
    expect(err.message).toContain('workspace "sales"');
  });

  it('lists the catalog when no definition matches, and the candidates when several connectors do', async () => {
    server.handle = (req, res) => {
      if (req.path.startsWith('/api/v1/integrations/definitions/sources')) return json(res, 200, defs);
      return json(res, 200, {
        data: [
          { id: 'a1', name: 'one' },
          { id: 'a2', name: 'two' },
        ],
      });
    };
    const none = await caught(client.resolveConnector({ definition: 'Nope' }));
    expect(none.code).toBe('C004');
    expect(none.message).toContain('CRM (d-crm)');
    const many = await caught(client.resolveConnector({ definition: 'd-files' }));
    expect(many.code).toBe('C004');
    expect(many.message).toContain('a1 (one)');
    expect(many.message).toContain('a2 (two)');
  });
});
