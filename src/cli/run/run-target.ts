import type { ConnectorCatalog } from '../../catalog/index.js';
import { catalogForService } from '../../catalog/service-catalog.js';
import { completeConnectionConfig, readConnectionConfig, type ConnectionConfig } from '../../client/index.js';
import { checkRecipe, type CheckResult } from '../../run/index.js';
import { displayPath } from '../../errors/index.js';
import { formatDiagnostic } from '../../source/index.js';
import { readCommandEnv } from './env-file.js';
import type { RunFlags } from './run-types.js';

/**
 * The service a command's run talks to, decided before anything starts: the configured one (flags, then the
 * environment and .env), or the embedded one. It decides the catalog the recipe is checked against first.
 */
export interface RunTarget {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Lines for stderr before the run (the .env file read). */
  readonly notes: readonly string[];
  /** The configured service; undefined: the embedded one. */
  readonly config?: ConnectionConfig;
  /** The workspace of {definition} lookups, for the embedded service too. */
  readonly workspace: string;
}

/** Where --fixtures or --db ask for the embedded service (they win over CONNECTOR_API_URL). */
export function embeddedAsked(flags: RunFlags): boolean {
  return flags.fixtures !== undefined || flags.db !== undefined;
}

/** The target the flags and environment name; a bad URL or missing credentials throw (C001, exit 3). */
export function runTarget(flags: RunFlags): RunTarget {
  const read = readCommandEnv(flags.envFile, process.cwd());
  const env = read.env;
  const partial = readConnectionConfig(
    {
      ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
      ...(flags.organization !== undefined ? { organizationId: flags.organization } : {}),
    },
    embeddedAsked(flags) ? { ...env, CONNECTOR_API_URL: undefined } : env,
  );
  return {
    env,
    notes: read.note ? [read.note] : [],
    workspace: partial.workspace,
    ...(partial.baseUrl !== undefined ? { config: completeConnectionConfig(partial) } : {}),
  };
}

/** The catalog of the target's service (the embedded types for the embedded one); see catalogForService. */
export function targetCatalog(
  target: RunTarget | undefined,
  note: (message: string) => void,
): Promise<ConnectorCatalog | undefined> {
  // No target (its configuration is broken): the recipe's own checks still run, so they are reported first.
  if (!target) return Promise.resolve(undefined);
  return catalogForService(target.config?.baseUrl, process.cwd(), note);
}

/**
 * Checks a recipe as `recipe validate` does, against the catalog of the service the run talks to, with
 * --strict making warnings fatal; warnings of a recipe that passes are printed once, here, at the start.
 */
export async function checkForTarget(
  file: string,
  target: RunTarget | undefined,
  flags: { readonly strict?: boolean },
  note: (message: string) => void,
): Promise<CheckResult> {
  const catalog = await targetCatalog(target, note);
  // Diagnostics and run errors name the file relative to the working directory, however it was given.
  const result = await checkRecipe(file, {
    ...(catalog ? { catalog } : {}),
    strict: flags.strict === true,
    displayName: displayPath(file),
  });
  for (const w of result.recipe?.warnings ?? []) process.stderr.write(`${formatDiagnostic(w)}\n`);
  return result;
}

/**
 * The catalog a command that hands a recipe to the fleet (submit, schedule add) checks it against: the
 * service of CONNECTOR_API_URL when set (as `validate --online`), else the embedded types (as `validate`).
 * The worker checks it again against its own service's catalog before a single request.
 */
export async function configuredCatalog(note: (message: string) => void): Promise<{ catalog?: ConnectorCatalog }> {
  const catalog = await catalogForService(readConnectionConfig({}, process.env).baseUrl, process.cwd(), note);
  return catalog ? { catalog } : {};
}
