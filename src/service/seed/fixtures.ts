import type { Kysely } from 'kysely';
import { findTypeBySlugOrName } from '../core/connector-type.js';
import type { ConnectorType } from '../core/connector-type.js';
import { ServiceError } from '../core/errors.js';
import { compileSchema } from '../core/params-validator.js';
import { actionContext, type ServiceContext } from '../core/service-context.js';
import { createConnector, listConnectors, toConnectorInstance } from '../store/connectors.js';
import { DEFAULT_WORKSPACE } from '../store/organizations.js';
import type { CoreTables } from '../core/tables.js';
import { createWorkspace, findWorkspaceByName } from '../store/workspaces.js';
import { FixtureFileError, readFixturesFile } from './read-fixtures-file.js';

/** A fixture file: workspaces to make sure exist, and connectors with their type-specific data. */
export interface Fixtures {
  file: string;
  workspaces: { name: string }[];
  connectors: { type: string; name?: string; workspace?: string; data: unknown }[];
}

const fixturesSchema = {
  type: 'object',
  required: ['connectors'],
  additionalProperties: false,
  properties: {
    workspaces: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 200 } },
      },
    },
    connectors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'data'],
        additionalProperties: false,
        properties: {
          type: { type: 'string', minLength: 1 },
          name: { type: 'string', minLength: 1, maxLength: 200 },
          workspace: { type: 'string', minLength: 1, maxLength: 200 },
          data: {},
        },
      },
    },
  },
};

/** Reads and checks a fixture file (shape, connector types, workspaces named); nothing is written yet. */
export async function loadFixturesFile(file: string, types: readonly ConnectorType[]): Promise<Fixtures> {
  const value = await readFixturesFile(file);
  const validate = compileSchema(fixturesSchema);
  if (!validate(value)) {
    const problems = (validate.errors ?? []).map(
      (e) =>
        `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.keyword === 'additionalProperties' ? ` (${String(e.params['additionalProperty'])})` : ''}`,
    );
    throw new FixtureFileError(file, (validate.errors ?? [])[0]?.instancePath ?? '', problems.join('; '));
  }
  const v = value as Omit<Fixtures, 'file'> & { workspaces?: { name: string }[] };
  const names = new Set([DEFAULT_WORKSPACE, ...(v.workspaces ?? []).map((w) => w.name)]);
  v.connectors.forEach((c, i) => {
    const type = findTypeBySlugOrName(c.type, types);
    if (!type) throw new FixtureFileError(file, `/connectors/${i}/type`, `unknown connector type "${c.type}"`);
    if (!type.loadFixtures)
      throw new FixtureFileError(
        file,
        `/connectors/${i}/type`,
        `connector type ${type.definition.name} cannot load fixtures`,
      );
    if (c.workspace !== undefined && !names.has(c.workspace)) {
      throw new FixtureFileError(
        file,
        `/connectors/${i}/workspace`,
        `workspace "${c.workspace}" is neither "default" nor listed under workspaces`,
      );
    }
  });
  return { file, workspaces: v.workspaces ?? [], connectors: v.connectors };
}

/**
 * Loads fixtures into an organization, all or nothing: each connector is created and filled by its
 * type's loadFixtures; if any fails, everything this call created is removed again. A connector of the
 * same type and name already in the workspace is replaced once every load succeeded.
 */
export async function applyFixtures(
  svc: ServiceContext,
  orgId: string,
  fx: Fixtures,
  baseUrl: string,
): Promise<string[]> {
  const db = svc.store.db as Kysely<CoreTables>;
  const createdWorkspaces: string[] = [];
  const createdConnectors: string[] = [];
  const replaced: string[] = [];
  try {
    for (const w of fx.workspaces) {
      if (!(await findWorkspaceByName(db, orgId, w.name)))
        createdWorkspaces.push((await createWorkspace(db, orgId, w.name, svc.now())).id);
    }
    for (const [i, c] of fx.connectors.entries()) {
      const type = findTypeBySlugOrName(c.type, svc.types)!;
      const ws = (await findWorkspaceByName(db, orgId, c.workspace ?? DEFAULT_WORKSPACE))!;
      const name = c.name ?? `${type.definition.name} fixtures`;
      const old = await listConnectors(db, orgId, ws.id, type.definition.id);
      replaced.push(...old.filter((o) => o.name === name).map((o) => o.id));
      const row = await createConnector(
        db,
        { organizationId: orgId, workspaceId: ws.id, definitionId: type.definition.id, name, credentials: {} },
        svc.now(),
      );
      createdConnectors.push(row.id);
      try {
        await type.loadFixtures!(actionContext(svc, toConnectorInstance(row), baseUrl), c.data);
      } catch (err) {
        // Name each item's field unless its message already does (e.g. "data.contacts.0.properties.email is required").
        const detail =
          err instanceof ServiceError
            ? err.items
                .map((it) => (it.field && !it.message.includes(it.field) ? `${it.field}: ${it.message}` : it.message))
                .join('; ')
            : (err as Error).message;
        throw new FixtureFileError(fx.file, `/connectors/${i}/data`, detail);
      }
    }
  } catch (err) {
    if (createdConnectors.length) await db.deleteFrom('connectors').where('id', 'in', createdConnectors).execute();
    if (createdWorkspaces.length) await db.deleteFrom('workspaces').where('id', 'in', createdWorkspaces).execute();
    throw err;
  }
  if (replaced.length) await db.deleteFrom('connectors').where('id', 'in', replaced).execute();
  return createdConnectors;
}
