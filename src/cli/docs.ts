import type { Command } from 'commander';
import {
  embeddedCatalog,
  findType,
  hintFor,
  renderAction,
  renderCatalogIndex,
  renderEntity,
  type CatalogEntity,
  type CatalogType,
  type ConnectorCatalog,
} from '../catalog/index.js';
import { ENV, readConnectionConfig } from '../client/index.js';
import { formatLocation, RecipeError } from '../errors/index.js';
import { serviceCatalog } from '../catalog/service-catalog.js';
import { exitCodeFor } from './exit-codes.js';

interface DocsFlags {
  type?: string;
  json?: boolean;
  against?: string;
  online?: boolean;
}

/** `recipe docs [ENTITY[.ACTION]]`: the connector catalog for a person (params, paging, writes, examples). */
export function registerDocs(program: Command): void {
  program
    .command('docs')
    .description("show the connector types' entities, an entity's actions, or an action's params with an example")
    .argument('[topic]', 'ENTITY or ENTITY.ACTION (e.g. deals, tasks.create, associations); nothing: every entity')
    .option('--type <name>', 'the connector type, when several have the entity (e.g. CRM, Files)')
    .option('--json', "print the catalog's entry (entity or action, with the params schema) as JSON")
    .option('--against <url>', "read the catalog of this service instead of the embedded one's")
    .option('--online', `read the catalog of the service at ${ENV.baseUrl}`)
    .addHelpText(
      'after',
      `
Examples:
  recipe docs                       every connector type, entity and action
  recipe docs deals                 the actions of deals: what they do, read or write, how they page
  recipe docs tasks.create          params (required, types, allowed values), and an example step
  recipe docs associations          the associations entity and the association type names and ids
  recipe docs files.list --type Files --json`,
    )
    .action(async (topic: string | undefined, flags: DocsFlags) => {
      try {
        process.stdout.write(await docs(topic, flags));
      } catch (err) {
        const e = err instanceof RecipeError ? err : new RecipeError('C001', { reason: String(err) });
        process.stderr.write(`${formatLocation(e.location)}${e.code} ${e.message}\n`);
        process.exitCode = exitCodeFor(e.class);
      }
    });
}

async function docs(topic: string | undefined, flags: DocsFlags): Promise<string> {
  const catalog = await catalogFor(flags);
  const types = flags.type !== undefined ? [typeNamed(catalog, flags.type)] : catalog.types;
  if (topic === undefined) {
    const shown = { ...catalog, types };
    return flags.json ? json(shown) : renderCatalogIndex(shown);
  }
  const [entityName = '', actionName] = topic.split('.', 2);
  const found = types.flatMap((t) => t.entities.filter((e) => e.name === entityName).map((e) => ({ t, e })));
  const first = found[0];
  if (!first) throw unknownEntity(types, entityName);
  if (found.length > 1 && flags.type === undefined)
    throw new RecipeError('C001', {
      reason: `several connector types have an entity "${entityName}" (${found.map((f) => f.t.name).join(', ')}); add --type`,
    });
  const { t, e } = first;
  if (actionName === undefined) return flags.json ? json(e) : renderEntity(t, e);
  const action = e.actions.find((a) => a.action === actionName);
  if (!action) {
    const valid = e.actions.map((a) => a.action);
    throw new RecipeError('A002', {
      type: t.name,
      entity: e.name,
      action: actionName,
      hint: hintFor(actionName, valid),
      valid: valid.join(', '),
    });
  }
  return flags.json ? json(action) : renderAction(t, action);
}

function unknownEntity(types: readonly CatalogType[], name: string): RecipeError {
  const valid = [...new Set(types.flatMap((t) => t.entities.map((e: CatalogEntity) => e.name)))];
  return new RecipeError('A001', {
    type: types.map((t) => t.name).join(' or '),
    entity: name,
    hint: hintFor(name, valid),
    valid: valid.join(', '),
  });
}

function typeNamed(catalog: ConnectorCatalog, name: string): CatalogType {
  const type = findType(catalog, name);
  if (type) return type;
  const valid = catalog.types.map((t) => t.name);
  throw new RecipeError('A010', { name, source: catalog.source, hint: hintFor(name, valid), valid: valid.join(', ') });
}

async function catalogFor(flags: DocsFlags): Promise<ConnectorCatalog> {
  let url = flags.against;
  if (url === undefined && flags.online) {
    url = readConnectionConfig({}, process.env).baseUrl;
    if (url === undefined) throw new RecipeError('C001', { reason: `--online needs ${ENV.baseUrl}` });
  }
  return url === undefined ? embeddedCatalog() : serviceCatalog(url);
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
