import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectorSchemaDir } from '../schema-dir.js';

/**
 * Reads this connector's JSON Schemas from schemas/connectors/files/ (connectorSchemaDir). The same files
 * validate execute, generate the skills docs and the OpenAPI document.
 */
const schemaDir = connectorSchemaDir('files');

/** Loads one schema file by its base name, e.g. "files.list.params". */
export function loadFilesSchema(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(schemaDir, `${name}.json`), 'utf8')) as Record<string, unknown>;
}

export const folderRecordSchema = loadFilesSchema('folder.record');
export const fileRecordSchema = loadFilesSchema('file.record');

/** The result schema of a list action: an array of records. */
export function listResultSchema(record: Record<string, unknown>): Record<string, unknown> {
  return { type: 'array', description: 'One page of records in id order.', items: record };
}

/** connector_metadata of the list actions: Files' own paging keys. */
export const offsetMetadataSchema: Record<string, unknown> = {
  type: 'object',
  required: ['has_more', 'next_offset', 'has_next_page', 'total'],
  properties: {
    has_more: { type: 'boolean', description: 'True when more records follow this page.' },
    next_offset: {
      type: ['integer', 'null'],
      description: 'The params.offset of the next page, or null on the last page.',
    },
    has_next_page: { type: 'boolean', description: 'Same as has_more (the key generic clients look for).' },
    total: { type: 'integer', description: 'Number of records matching the list filter.' },
  },
};
