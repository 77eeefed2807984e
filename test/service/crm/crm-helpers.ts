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
  const headers = await svc.auth();
  const call = async (entity: string, action: string, params?: Record<string, unknown>) => {
    const res = await svc.app.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${connectorId}/execute`,
      headers,
      payload: { entity, action, ...(params !== undefined && { params }) },
    });
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
