import type { FastifyPluginAsync } from 'fastify';
import { signApplicationToken, TOKEN_TTL_SECONDS } from '../auth/tokens.js';
import { ServiceError } from '../core/errors.js';
import { authenticateApplication } from '../store/applications.js';

const bodySchema = {
  type: 'object',
  required: ['client_id', 'client_secret'],
  properties: {
    client_id: { type: 'string', minLength: 1, maxLength: 200 },
    client_secret: { type: 'string', minLength: 1, maxLength: 500 },
  },
} as const;

/** POST /account/applications/token: client credentials → a 15-minute HS256 application token. */
export const tokenRoutes: FastifyPluginAsync = async (app) => {
  app.post<{ Body: { client_id: string; client_secret: string } }>(
    '/account/applications/token',
    { schema: { body: bodySchema }, config: { public: true } },
    async (request) => {
      const { client_id, client_secret } = request.body;
      const organizationId = await authenticateApplication(app.service.store.db, client_id, client_secret);
      if (!organizationId) throw new ServiceError('H401', { message: 'invalid client credentials' });
      const access_token = await signApplicationToken(
        app.service.signingKey,
        { organizationId, clientId: client_id },
        app.service.now(),
      );
      return { access_token, token_type: 'bearer', expires_in: TOKEN_TTL_SECONDS, organization_id: organizationId };
    },
  );
};
