/**
 * Every path of the connector API, spelled here only (house rule 14). Paths start with "/" as the API spells
 * them (and as the journal and --dry-run record them); the client resolves them against the service's base
 * URL, keeping any prefix it has (https://host/prefix/ + /api/v1/... → https://host/prefix/api/v1/...).
 */

const API = '/api/v1';
const CONNECTORS = `${API}/integrations/connectors`;

/** POST: an application token for a client id and secret. */
export const tokenPath = (): string => `${API}/account/applications/token`;

/** GET: the service's OpenAPI document (public, no token). */
export const openapiPath = (): string => `${API}/openapi.json`;

/** GET: the connector definitions (types) of the catalog. */
export const definitionsPath = (): string => `${API}/integrations/definitions/sources`;

/** GET: the connectors, looked up by workspace and definition. */
export const connectorsPath = (): string => CONNECTORS;

/** GET, PUT, DELETE: one connector. */
export const connectorPath = (connectorId: string): string => `${CONNECTORS}/${encodeURIComponent(connectorId)}`;

/** GET: a skill's docs (query id = inspect's docs_skill_id; section = one id of its outline). */
export const skillDocsPath = (): string => `${API}/skills/docs`;

/** GET: the workspaces of the organization. */
export const workspacesPath = (): string => `${API}/workspaces`;

/** POST: one action of a connector (entity, action, params). */
export const executePath = (connectorId: string): string => `${CONNECTORS}/${encodeURIComponent(connectorId)}/execute`;

/** GET: a connector's description (its actions, context store readiness). */
export const inspectPath = (connectorId: string): string => `${CONNECTORS}/${encodeURIComponent(connectorId)}/inspect`;

/** The URL of a path of the API under a service's base URL (its own path prefix kept). */
export function apiUrl(baseUrl: string | URL, path: string): URL {
  const base = new URL(baseUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return new URL(path.replace(/^\/+/, ''), base);
}

const TOKEN_ROUTE = /\/api\/v1\/account\/applications\/token$/;
const EXECUTE_ROUTE = /\/api\/v1\/integrations\/connectors\/[^/]+\/execute$/;
/** An OpenAPI document's path template of execute: /api/v1/integrations/connectors/{connector_id}/execute. */
const EXECUTE_TEMPLATE = /\/connectors\/\{[^}]+\}\/execute$/;

/** True when a request's path name is the token exchange's. */
export const isTokenPath = (pathname: string): boolean => TOKEN_ROUTE.test(pathname);

/** True when a request's path name is a connector's execute. */
export const isExecutePath = (pathname: string): boolean => EXECUTE_ROUTE.test(pathname);

/** True when an OpenAPI document's path (a template) is execute's. */
export const isExecuteTemplate = (path: string): boolean => EXECUTE_TEMPLATE.test(path);

/** A request's path name as its route template: the connector id left out (…/connectors/{id}/execute). */
export const routeTemplateOf = (pathname: string): string =>
  pathname.replace(/\/connectors\/[^/]+\//, '/connectors/{id}/');
