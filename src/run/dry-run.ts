import {
  checkAssociations,
  checkParams,
  fieldPath,
  findEntity,
  findType,
  type CatalogType,
  type ConnectorCatalog,
  type ParamProblem,
} from '../catalog/index.js';
import type { HttpCallRequest } from '../client/index.js';
import { catalog as codes, formatTemplate } from '../errors/index.js';
import type { StepExec } from './exec.js';
import { inspect } from './service-calls.js';
import type { DryRunProblem, DryRunWrite, ExecuteDryRunWrite } from './report.js';

/**
 * Records the writes --dry-run does not send, and makes the placeholder results steps get instead. With a
 * connector catalog, each write is checked with its real, computed params against its action's schema (the
 * one the service validates with), so a dry-run shows which writes the service would refuse.
 */
export class DryRunLog {
  readonly writes: DryRunWrite[] = [];
  private readonly types = new Map<string, Promise<CatalogType | undefined>>();

  constructor(private readonly catalog?: ConnectorCatalog) {}

  /** The writes the service would refuse. */
  get invalid(): DryRunWrite[] {
    return this.writes.filter((w) => 'valid' in w && w.valid === false);
  }

  /** Records the request and returns {dry_run: true, id: "dry-run-N", ...params}. */
  async record(
    sx: StepExec,
    connectorId: string,
    entity: string,
    action: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const write: ExecuteDryRunWrite = {
      ...site(sx),
      method: 'POST',
      path: `/api/v1/integrations/connectors/${encodeURIComponent(connectorId)}/execute`,
      body: { entity, action, params },
    };
    this.writes.push(write);
    const type = this.catalog ? await this.typeOf(sx, connectorId) : undefined;
    if (type) {
      const problems = checkWrite(type, entity, action, params);
      Object.assign(write, { valid: problems.length === 0, ...(problems.length > 0 ? { problems } : {}) });
    }
    return { dry_run: true, id: `dry-run-${this.writes.length}`, ...params };
  }

  /** Records an http step's write (the body parsed back when it is JSON) and returns {dry_run: true, id}. */
  recordHttp(sx: StepExec, req: HttpCallRequest, json: boolean): Record<string, unknown> {
    this.writes.push({
      ...site(sx),
      kind: 'http',
      method: req.method,
      url: req.url,
      headers: { ...req.headers },
      ...(req.body !== undefined ? { body: json ? (JSON.parse(req.body) as unknown) : req.body } : {}),
    });
    return { dry_run: true, id: `dry-run-${this.writes.length}` };
  }

  /** The connector's type: from a literal `definition`, else from inspect (asked once per connector). */
  private typeOf(sx: StepExec, connectorId: string): Promise<CatalogType | undefined> {
    const catalog = this.catalog;
    if (!catalog) return Promise.resolve(undefined);
    const ref = sx.step.connector ?? sx.exec.defaultConnector;
    if (ref?.kind === 'lookup' && ref.definition.kind === 'literal' && typeof ref.definition.value === 'string') {
      const type = findType(catalog, ref.definition.value);
      if (type) return Promise.resolve(type);
    }
    let found = this.types.get(connectorId);
    if (!found) {
      // The run-wide action catalog call (shared with paging key detection, journaled and replayed once).
      found = inspect(sx, connectorId, true).then(
        (info) =>
          findType(catalog, String(info.source_definition_id ?? '')) ??
          findType(catalog, String(info.source_definition_name ?? '')),
        () => undefined,
      );
      this.types.set(connectorId, found);
    }
    return found;
  }
}

/** Every problem of one computed write against its type's catalog (empty: the service would accept the params). */
export function checkWrite(
  type: CatalogType,
  entityName: string,
  actionName: string,
  params: Record<string, unknown>,
): DryRunProblem[] {
  const entity = findEntity(type, entityName);
  if (!entity) {
    const valid = type.entities.map((e) => e.name).join(', ');
    return [problem('A001', { type: type.name, entity: entityName, hint: '', valid }, 'entity')];
  }
  const action = entity.actions.find((a) => a.action === actionName);
  if (!action) {
    const valid = entity.actions.map((a) => a.action).join(', ');
    return [problem('A002', { type: type.name, entity: entityName, action: actionName, hint: '', valid }, 'action')];
  }
  const value = { kind: 'literal' as const, value: params };
  return [...checkParams(action, value, entity), ...checkAssociations(type, action, value)].map((p: ParamProblem) =>
    problem(p.code, p.params, fieldPath(p.path)),
  );
}

function problem(code: keyof typeof codes, params: Record<string, unknown>, field: string): DryRunProblem {
  return { code, message: formatTemplate(codes[code].template, params), field };
}

/** Where a write sits: its step, file, line and column, and the item's index in each enclosing loop. */
function site(sx: StepExec): { step: string; line: number; file: string; column: number; loop_index?: number[] } {
  const loop = sx.exec.loop ?? [];
  return {
    step: sx.stats.id,
    line: sx.stats.line,
    file: sx.step.loc.file,
    column: sx.step.loc.column,
    ...(loop.length > 0 ? { loop_index: [...loop] } : {}),
  };
}
