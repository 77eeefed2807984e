import { crmConnector } from '../../../src/service/connectors/crm/index.js';
import type { ActionContext } from '../../../src/service/core/connector-type.js';
import { createTestService, type TestService } from '../helpers.js';

/** A test service with one empty CRM connector and a short way to call execute. */
export interface CrmHarness {
  svc: TestService;
  connectorId: string;
  /** POSTs execute and returns status and parsed body. */
  call(entity: string, action: string, params?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  /** Like call, but fails the test unless the status is 200; returns the envelope. */
  ok(entity: string, action: string, params?: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

/** Starts the service on an in-memory store and creates a CRM connector (clock pinned). */
export async function crmHarness(now = new Date('2026-03-01T12:00:00.000Z')): Promise<CrmHarness> {
  const svc = await createTestService();
  svc.clock.set(now);
  const connectorId = await svc.createConnector('crm');
  // One token for the whole harness: taking a token per call would dominate the test time.
  // Tests that move the pinned clock past the token lifetime get a fresh token on the 401.
  let headers = await svc.auth();
  const call = async (entity: string, action: string, params?: Record<string, unknown>) => {
    const send = () =>
      svc.app.inject({
        method: 'POST',
        url: `/api/v1/integrations/connectors/${connectorId}/execute`,
        headers,
        payload: { entity, action, ...(params !== undefined && { params }) },
      });
    let res = await send();
    if (res.statusCode === 401) {
      headers = await svc.auth();
      res = await send();
    }
    return { status: res.statusCode, body: res.json() };
  };
  return {
    svc,
    connectorId,
    call,
    async ok(entity, action, params) {
      const r = await call(entity, action, params);
      if (r.status !== 200) throw new Error(`${entity}.${action} answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r.body;
    },
    close: () => svc.close(),
  };
}

/** The text of an error body (message plus every item), for "mentions X" assertions. */
export function errorText(body: any): string {
  return [body.message, ...(body.errors ?? []).map((e: any) => `${e.field} ${e.message}`)].join(' | ');
}

/** An ActionContext for calling the connector's seed/fixtures/context-source directly on the harness connector. */
export function directContext(
  h: CrmHarness,
  notified: { entity: string; ids: readonly string[] }[] = [],
): ActionContext {
  return {
    store: h.svc.store,
    connector: {
      id: h.connectorId,
      organizationId: h.svc.org.organizationId,
      workspaceId: h.svc.org.defaultWorkspaceId,
      definitionId: crmConnector.definition.id,
      name: 'crm',
    },
    now: () => new Date('2026-03-01T12:00:00.000Z'),
    baseUrl: 'http://127.0.0.1:1',
    notifyChange: (entity, ids) => void notified.push({ entity, ids }),
  };
}
