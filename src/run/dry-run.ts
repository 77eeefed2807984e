import type { HttpCallRequest } from '../client/index.js';
import type { DryRunWrite } from './report.js';

/** Records the writes --dry-run does not send, and makes the placeholder results steps get instead. */
export class DryRunLog {
  readonly writes: DryRunWrite[] = [];

  /** Records the request and returns {dry_run: true, id: "dry-run-N", ...params}. */
  record(
    step: { id: string; line: number },
    connectorId: string,
    entity: string,
    action: string,
    params: Record<string, unknown>,
  ): Record<string, unknown> {
    this.writes.push({
      step: step.id,
      line: step.line,
      method: 'POST',
      path: `/api/v1/integrations/connectors/${encodeURIComponent(connectorId)}/execute`,
      body: { entity, action, params },
    });
    return { dry_run: true, id: `dry-run-${this.writes.length}`, ...params };
  }

  /** Records an http step's write (the body parsed back when it is JSON) and returns {dry_run: true, id}. */
  recordHttp(step: { id: string; line: number }, req: HttpCallRequest, json: boolean): Record<string, unknown> {
    this.writes.push({
      step: step.id,
      line: step.line,
      kind: 'http',
      method: req.method,
      url: req.url,
      headers: { ...req.headers },
      ...(req.body !== undefined ? { body: json ? (JSON.parse(req.body) as unknown) : req.body } : {}),
    });
    return { dry_run: true, id: `dry-run-${this.writes.length}` };
  }
}
