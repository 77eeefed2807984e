import { createServer, type IncomingMessage } from 'node:http';
import { json, listenLocal } from './fault-server.js';

/** A request as the contract server saw it. */
export interface ContractSeen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

/** A connector of the server: its id, name, and the summarized template the contract promises. */
export interface ContractConnector {
  readonly id: string;
  readonly name: string;
  readonly templateName: string;
  readonly connectorName: string;
  readonly actorDefinitionId: string;
}

/** How the server behaves; tests change it between calls. */
export interface ContractServer {
  url: string;
  seen: ContractSeen[];
  /** The catalog's definitions, as ConnectorDefinitionSummarized (sourceDefinitionId may be null or absent). */
  definitions: { sourceDefinitionId?: string | null; name: string }[];
  connectors: ContractConnector[];
  /** expires_in of the token answer; undefined: the field is left out. */
  expiresIn: number | undefined;
  /** When set, tokens are JWT-shaped (tok-N.<claims>.sig) with this exp claim (seconds since the epoch). */
  jwtExp?: number;
  /** The next answers to an authenticated request are 401 this many times (a token revoked early). */
  refuseNext: number;
  tokensIssued: number;
  close(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A connector API on 127.0.0.1 that answers only what the published contract promises: the token answer
 * (expires_in optional here, to test a service that leaves it out), list rows with summarized_source_template
 * and no definition_id, a connectors list NOT filtered by definition_id (a non-UUID one is refused with 422, as
 * a query typed uuid is), inspect and execute.
 */
export async function startContractServer(): Promise<ContractServer> {
  const state: ContractServer = {
    url: '',
    seen: [],
    definitions: [],
    connectors: [],
    expiresIn: 900,
    refuseNext: 0,
    tokensIssued: 0,
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      state.seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
      if (url.pathname === '/api/v1/account/applications/token') {
        state.tokensIssued++;
        return json(res, 200, {
          access_token:
            state.jwtExp === undefined
              ? `tok-${state.tokensIssued}`
              : `tok-${state.tokensIssued}.${Buffer.from(JSON.stringify({ exp: state.jwtExp })).toString('base64url')}.sig`,
          token_type: 'bearer',
          ...(state.expiresIn !== undefined ? { expires_in: state.expiresIn } : {}),
        });
      }
      if (!(req.headers.authorization ?? '').startsWith('Bearer tok-') || state.refuseNext-- > 0) {
        return json(res, 401, { message: 'invalid token', errors: [] });
      }
      if (url.pathname === '/api/v1/integrations/definitions/sources') {
        return json(res, 200, { definitions: state.definitions });
      }
      if (url.pathname === '/api/v1/integrations/connectors') {
        const definitionId = url.searchParams.get('definition_id');
        if (definitionId !== null && !UUID.test(definitionId)) {
          return json(res, 422, {
            message: 'Invalid UUID',
            errors: [{ field: 'definition_id', message: 'not a uuid', error_code: 'invalid', details: null }],
          });
        }
        // The contract does not promise the list is filtered by definition_id: this one never filters.
        return json(res, 200, {
          data: state.connectors.map((c) => ({
            id: c.id,
            name: c.name,
            summarized_source_template: {
              id: `tpl-${c.id}`,
              name: c.templateName,
              icon: null,
              connector_name: c.connectorName,
              actor_definition_id: c.actorDefinitionId,
            },
            created_at: null,
            updated_at: null,
          })),
        });
      }
      const execute = /^\/api\/v1\/integrations\/connectors\/([^/]+)\/execute$/.exec(url.pathname);
      if (execute && req.method === 'POST') {
        return json(res, 200, {
          status: 'success',
          result: [{ connector: execute[1] }],
          connector_metadata: {},
          execution_metadata: { connector_instance_id: `source_id:${execute[1]}`, execution_time_ms: 1 },
        });
      }
      const inspect = /^\/api\/v1\/integrations\/connectors\/([^/]+)\/inspect$/.exec(url.pathname);
      if (inspect) return json(res, 200, { connector_id: inspect[1], actions: [] });
      return json(res, 404, { message: 'not found', errors: [] });
    });
  });
  Object.assign(state, await listenLocal(server));
  return state;
}
