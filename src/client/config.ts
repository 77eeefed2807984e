import { RecipeError } from '../errors/index.js';

/** Where the connector service is and how to authenticate; secrets never leave the client. */
export interface ConnectionConfig {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Workspace for {workspace, definition} lookups when a recipe names none. */
  readonly workspace: string;
  /** Sent as x-organization-id on every connector API request (for accounts in several organizations). */
  readonly organizationId?: string;
}

/** What flags and environment gave; baseUrl is absent when neither did (the CLI then embeds the service). */
export interface PartialConnectionConfig {
  readonly baseUrl?: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly workspace: string;
  readonly organizationId?: string;
}

/** Flags a caller may pass; they win over the environment. */
export interface ConnectionFlags {
  readonly baseUrl?: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly workspace?: string;
  /** Named as in ConnectionConfig, so a complete config passed as flags keeps it. */
  readonly organizationId?: string;
}

/** Environment variables the client reads (and no others). */
export const ENV = {
  baseUrl: 'CONNECTOR_API_URL',
  clientId: 'CONNECTOR_CLIENT_ID',
  clientSecret: 'CONNECTOR_CLIENT_SECRET',
  workspace: 'CONNECTOR_WORKSPACE',
  organization: 'CONNECTOR_ORGANIZATION_ID',
} as const;

/** Merges flags over the environment and validates what is there; throws C001 on a bad value. */
export function readConnectionConfig(
  flags: ConnectionFlags,
  env: Readonly<Record<string, string | undefined>>,
): PartialConnectionConfig {
  const pick = (flag: string | undefined, name: string): string | undefined => {
    const v = flag ?? env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const baseUrl = pick(flags.baseUrl, ENV.baseUrl);
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  const clientId = pick(flags.clientId, ENV.clientId);
  const clientSecret = pick(flags.clientSecret, ENV.clientSecret);
  const workspace = pick(flags.workspace, ENV.workspace) ?? 'default';
  const organizationId = pick(flags.organizationId, ENV.organization);
  return {
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    clientId,
    clientSecret,
    workspace,
    ...(organizationId !== undefined ? { organizationId } : {}),
  };
}

/** A complete config, or C001 naming what is missing. */
export function completeConnectionConfig(partial: PartialConnectionConfig): ConnectionConfig {
  const missing: string[] = [];
  if (!partial.baseUrl) missing.push(`${ENV.baseUrl} (or --base-url)`);
  if (!partial.clientId) missing.push(ENV.clientId);
  if (!partial.clientSecret) missing.push(ENV.clientSecret);
  if (missing.length > 0 || !partial.baseUrl || !partial.clientId || !partial.clientSecret) {
    throw new RecipeError('C001', { reason: `missing ${missing.join(', ')}` });
  }
  return {
    baseUrl: partial.baseUrl,
    clientId: partial.clientId,
    clientSecret: partial.clientSecret,
    workspace: partial.workspace,
    ...(partial.organizationId !== undefined ? { organizationId: partial.organizationId } : {}),
  };
}

function checkBaseUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RecipeError('C001', { reason: `${ENV.baseUrl} is not a URL: "${value}"` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RecipeError('C001', { reason: `${ENV.baseUrl} must be http or https, got ${url.protocol}` });
  }
  if (url.username || url.password) {
    throw new RecipeError('C001', {
      reason: `${ENV.baseUrl} must not carry credentials; use ${ENV.clientId}/${ENV.clientSecret}`,
    });
  }
}
