import { ServiceError } from '../../core/errors.js';
import type { ActionContext, ActionResult, ConnectorType } from '../../core/connector-type.js';
import { filesActions } from './descriptors.js';
import { createFile, downloadFile, getFile, listFiles } from './files.js';
import { createFolder, getFolder, listFolders } from './folders.js';
import { filesMigrations } from './migrations.js';
import { loadFilesFixtures, seedFilesDemo } from './seed.js';

type Handler = (ctx: ActionContext, params: Record<string, unknown>) => Promise<ActionResult>;

const handlers: Record<string, Handler> = {
  'folders.list': listFolders,
  'folders.get': getFolder,
  'folders.create': createFolder,
  'files.list': listFiles,
  'files.get': getFile,
  'files.create': createFile,
  'files.download': downloadFile,
};

/**
 * The Files connector type: a document store of folders and files kept in the service's database. It pages
 * with offset/limit (cursor is refused) and offers download (raw bytes, no envelope).
 */
export const filesConnector: ConnectorType = {
  definition: {
    id: 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b',
    name: 'Files',
    slug: 'files',
    iconUrl: 'https://icons.recipe.local/files.svg',
    supportLevel: 'certified',
  },
  actions: filesActions,
  migrations: filesMigrations,
  async execute(ctx, entity, action, params) {
    const handler = handlers[`${entity}.${action}`];
    if (!handler) {
      // Unreachable through execute (the route checks entity and action against the descriptors first).
      throw new ServiceError(
        'H400_UNKNOWN_ACTION',
        { type: 'Files', entity, action, valid: '(see inspect)' },
        { field: 'action' },
      );
    }
    return handler(ctx, params);
  },
  seedDemo: (ctx) => seedFilesDemo(ctx),
  loadFixtures: (ctx, data) => loadFilesFixtures(ctx, data),
};
