import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Asset } from '../assets.js';
import { ConsoleError } from '../errors.js';

/** Paths the front end routes itself: each answers index.html, the front end draws the page. */
const PAGES = [
  /^\/$/,
  /^\/runs(\/[^/]+)?\/?$/,
  /^\/recipes(\/.*)?$/,
  /^\/service\/?$/,
  /^\/schedules\/?$/,
  /^\/fleet\/?$/,
];

/** The built front end: /assets/NAME from memory, and index.html for every page path. */
export const pageRoutes: FastifyPluginAsync<{ assets: Map<string, Asset> }> = async (app, { assets }) => {
  const send = (reply: FastifyReply, asset: Asset, cache: string): FastifyReply =>
    reply.header('content-type', asset.type).header('cache-control', cache).send(asset.body);

  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset || request.params.name === 'index.html')
      throw new ConsoleError('K404', { message: `no asset ${request.params.name}` });
    return send(reply, asset, 'no-cache');
  });

  app.get('/*', async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (!PAGES.some((p) => p.test(pathname))) throw new ConsoleError('K404', { message: `no page ${pathname}` });
    const index = assets.get('index.html');
    if (!index) throw new ConsoleError('K404', { message: 'the console front end is not built: run `npm run build`' });
    return send(reply, index, 'no-store');
  });
};
