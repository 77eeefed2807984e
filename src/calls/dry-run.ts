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
import { executePath, type HttpCallRequest } from '../client/index.js';
import { catalog as codes, formatTemplate } from '../errors/index.js';
import type { DryRunProblem, DryRunSite, DryRunWrite, ExecuteDryRunWrite } from '../frame/report.js';

/** Where a write's connector type comes from: a literal `definition` names it, else the connector's inspect. */
export interface TypeSource {
  readonly definition?: string;
  inspect(): Promise<Record<string, unknown>>;
}

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

  /** Records the request and returns {dry_run: true, id, ...params}; `id` is the call's placeholderId. */
  async record(
    site: DryRunSite,
    id: string,
    connectorId: string,
    entity: string,
    action: string,
    params: Record<string, unknown>,
    types: TypeSource,
  ): Promise<Record<string, unknown>> {
    const write: ExecuteDryRunWrite = {
      ...site,
      method: 'POST',
      path: executePath(connectorId),
      body: { entity, action, params },
    };
    this.writes.push(write);
    const type = this.catalog ? await this.typeOf(connectorId, types) : undefined;
    if (type) {
      const problems = checkWrite(type, entity, action, params);
      Object.assign(write, { valid: problems.length === 0, ...(problems.length > 0 ? { problems } : {}) });
    }
    return { dry_run: true, id, ...params };
  }

  /** Records an http step's write (the body parsed back when it is JSON) and returns {dry_run: true, id}. */
  recordHttp(site: DryRunSite, id: string, req: HttpCallRequest, json: boolean): Record<string, unknown> {
    this.writes.push({
      ...site,
      kind: 'http',
      method: req.method,
      url: req.url,
      headers: { ...req.headers },
      ...(req.body !== undefined ? { body: json ? (JSON.parse(req.body) as unknown) : req.body } : {}),
    });
    return { dry_run: true, id };
  }

  /** The connector's type: from a literal `definition`, else from inspect (asked once per connector). */
  private typeOf(connectorId: string, types: TypeSource): Promise<CatalogType | undefined> {
    const catalog = this.catalog;
    if (!catalog) return Promise.resolve(undefined);
    if (types.definition !== undefined) {
      const type = findType(catalog, types.definition);
      if (type) return Promise.resolve(type);
    }
    let found = this.types.get(connectorId);
    if (!found) {
      found = types.inspect().then(
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
