import { ServiceError } from '../../errors.js';
import type { ConnectorType } from '../types.js';

/** The Files connector type (placeholder until its actions land; owned by the context-store/Files work). */
export const filesConnector: ConnectorType = {
  definition: {
    id: 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b',
    name: 'Files',
    slug: 'files',
    iconUrl: 'https://icons.recipe.local/files.svg',
    supportLevel: 'certified',
  },
  actions: [],
  async execute(_ctx, entity, action) {
    throw new ServiceError('H400', { message: `entity "${entity}" has no action "${action}"` });
  },
};
