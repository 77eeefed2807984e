import type { ActionDescriptor } from '../../core/connector-type.js';
import { fileRecordSchema, folderRecordSchema, listResultSchema, loadFilesSchema } from './schemas.js';

function describe(
  entity: string,
  action: string,
  write: boolean,
  summary: string,
  resultSchema: Record<string, unknown>,
): ActionDescriptor {
  const paramsSchema = loadFilesSchema(`${entity}.${action}.params`);
  const properties = Object.keys((paramsSchema.properties ?? {}) as Record<string, unknown>);
  const required = (paramsSchema.required ?? []) as string[];
  return {
    entity,
    action,
    paramsSchema,
    resultSchema,
    requiredParams: required,
    // cursor is in the schema only so that it can be refused with a helpful message; it is not an option.
    optionalParams: properties.filter((p) => !required.includes(p) && p !== 'cursor'),
    write,
    summary,
  };
}

/** Every entity/action the Files connector offers, described from schemas/connectors/files/. */
export const filesActions: readonly ActionDescriptor[] = [
  describe(
    'folders',
    'list',
    false,
    'List folders, paged with offset and limit.',
    listResultSchema(folderRecordSchema),
  ),
  describe('folders', 'get', false, 'Read one folder by folderId.', folderRecordSchema),
  describe('folders', 'create', true, 'Create a folder, optionally inside another.', folderRecordSchema),
  describe(
    'files',
    'list',
    false,
    'List file metadata, paged with offset and limit, optionally of one folder.',
    listResultSchema(fileRecordSchema),
  ),
  describe('files', 'get', false, 'Read the metadata of one file by fileId.', fileRecordSchema),
  describe(
    'files',
    'create',
    true,
    'Store a file (content as base64, or as UTF-8 text with encoding utf-8) in a folder.',
    fileRecordSchema,
  ),
  describe('files', 'download', false, 'Download the raw bytes of a file (no JSON envelope).', {
    type: 'string',
    contentMediaType: 'application/octet-stream',
    description: "The file's bytes; Content-Type is the file's contentType and Content-Disposition names the file.",
  }),
];
