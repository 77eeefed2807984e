import type { Kysely } from 'kysely';
import { ServiceError, type ServiceErrorItem } from '../../core/errors.js';
import type { ActionContext } from '../../core/connector-type.js';
import { MAX_FILE_BYTES } from './content.js';
import { insertFile } from './files.js';
import { gradientPng } from './png.js';
import { filesDb, type FolderRow } from './tables.js';
import type { CoreTables } from '../../core/tables.js';

/** One file of a dataset: exactly one of text, json or base64 gives its bytes. */
interface FixtureFile {
  name: string;
  content_type?: string;
  content: Buffer;
}

/** One folder of a dataset, with its files and sub-folders. */
interface FixtureFolder {
  name: string;
  files: FixtureFile[];
  folders: FixtureFolder[];
}

/** The deterministic demo tree: text, JSON and a small PNG, in two folders and a sub-folder. */
function demoTree(): FixtureFolder[] {
  const text = (s: string) => Buffer.from(s, 'utf8');
  return [
    {
      name: 'Reports',
      files: [
        {
          name: 'weekly-summary.txt',
          content: text('Weekly summary\n\nNew contacts: 42\nDeals won: 7\nTickets closed: 31\n'),
        },
        {
          name: 'pipeline.json',
          content: text(
            `${JSON.stringify({ stages: { qualifiedtobuy: 12, contractsent: 4, closedwon: 7 }, currency: 'USD' }, null, 2)}\n`,
          ),
        },
      ],
      folders: [
        {
          name: 'Archive',
          files: [{ name: 'q1-notes.md', content: text('# Q1 notes\n\n- Renewals on track\n- Two new regions\n') }],
          folders: [],
        },
      ],
    },
    {
      name: 'Images',
      files: [{ name: 'logo.png', content: gradientPng(16, 16) }],
      folders: [],
    },
  ];
}

async function insertTree(
  trx: Kysely<CoreTables>,
  connectorId: string,
  tree: FixtureFolder[],
  parentId: number | null,
  now: string,
): Promise<void> {
  for (const folder of tree) {
    const row = await filesDb(trx)
      .insertInto('files_folders')
      .values({
        connector_id: connectorId,
        parent_id: parentId,
        name: folder.name,
        created_at: now,
        updated_at: now,
      } as FolderRow)
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const file of folder.files) {
      await insertFile(
        trx,
        connectorId,
        { folderId: String(row.id), name: file.name, content: file.content, contentType: file.content_type },
        now,
      );
    }
    await insertTree(trx, connectorId, folder.folders, row.id, now);
  }
}

/** Fills a new Files connector with the demo folders and files. */
export async function seedFilesDemo(ctx: ActionContext): Promise<void> {
  const now = ctx.now().toISOString();
  await ctx.store.transaction((trx) => insertTree(trx, ctx.connector.id, demoTree(), null, now));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseFile(raw: unknown, path: string, problems: ServiceErrorItem[]): FixtureFile | null {
  const problem = (field: string, message: string) =>
    problems.push({ field, message, error_code: 'validation_error', details: null });
  if (!isObject(raw))
    return (problem(path, 'a file must be an object {name, text | json | base64, content_type?}'), null);
  for (const key of Object.keys(raw)) {
    if (!['name', 'text', 'json', 'base64', 'content_type'].includes(key))
      problem(`${path}.${key}`, `unknown key "${key}"`);
  }
  if (
    typeof raw.name !== 'string' ||
    raw.name.length === 0 ||
    raw.name.length > 255 ||
    /[/\\\u0000-\u001f]/.test(raw.name)
  ) {
    problem(`${path}.name`, 'name must be 1 to 255 characters without slashes or control characters');
  }
  if (
    raw.content_type !== undefined &&
    (typeof raw.content_type !== 'string' || !/^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(;[ -~]*)?$/.test(raw.content_type))
  ) {
    problem(`${path}.content_type`, 'content_type must be a MIME type such as text/plain');
  }
  const sources = ['text', 'json', 'base64'].filter((k) => raw[k] !== undefined);
  if (sources.length !== 1) return (problem(path, 'give exactly one of text, json or base64'), null);
  let content: Buffer;
  if (raw.text !== undefined) {
    if (typeof raw.text !== 'string') return (problem(`${path}.text`, 'text must be a string'), null);
    content = Buffer.from(raw.text, 'utf8');
  } else if (raw.json !== undefined) {
    content = Buffer.from(`${JSON.stringify(raw.json, null, 2)}\n`, 'utf8');
  } else {
    const b64 = raw.base64;
    if (typeof b64 !== 'string' || b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64))
      return (problem(`${path}.base64`, 'base64 must be standard padded base64'), null);
    content = Buffer.from(b64, 'base64');
  }
  if (content.length === 0) problem(path, 'a file must hold at least 1 byte');
  if (content.length > MAX_FILE_BYTES) problem(path, `a file holds at most ${MAX_FILE_BYTES} bytes`);
  return {
    name: String(raw.name),
    content,
    ...(typeof raw.content_type === 'string' ? { content_type: raw.content_type } : {}),
  };
}

function parseFolders(raw: unknown, path: string, problems: ServiceErrorItem[]): FixtureFolder[] {
  const problem = (field: string, message: string) =>
    problems.push({ field, message, error_code: 'validation_error', details: null });
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) return (problem(path, 'folders must be an array'), []);
  return raw.map((f, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(f))
      return (problem(at, 'a folder must be an object {name, files?, folders?}'), { name: '', files: [], folders: [] });
    for (const key of Object.keys(f))
      if (!['name', 'files', 'folders'].includes(key)) problem(`${at}.${key}`, `unknown key "${key}"`);
    if (typeof f.name !== 'string' || f.name.length === 0 || f.name.length > 255)
      problem(`${at}.name`, 'name must be 1 to 255 characters');
    if (f.files !== undefined && !Array.isArray(f.files)) problem(`${at}.files`, 'files must be an array');
    const files = Array.isArray(f.files) ? f.files.map((x, j) => parseFile(x, `${at}.files[${j}]`, problems)) : [];
    return {
      name: String(f.name),
      files: files.filter((x): x is FixtureFile => x !== null),
      folders: parseFolders(f.folders, `${at}.folders`, problems),
    };
  });
}

/** Loads a dataset {folders: [{name, files: [{name, text|json|base64, content_type?}], folders: [...]}]}; all or nothing. */
export async function loadFilesFixtures(ctx: ActionContext, data: unknown): Promise<void> {
  const problems: ServiceErrorItem[] = [];
  if (!isObject(data))
    throw new ServiceError(
      'H400_INVALID_FIXTURES',
      { message: 'Files fixtures must be an object {folders: [...]}' },
      { field: 'fixtures' },
    );
  for (const key of Object.keys(data))
    if (key !== 'folders')
      problems.push({
        field: `fixtures.${key}`,
        message: `unknown key "${key}"`,
        error_code: 'validation_error',
        details: null,
      });
  const tree = parseFolders(data.folders, 'fixtures.folders', problems);
  if (problems.length > 0) {
    throw new ServiceError(
      'H400_INVALID_FIXTURES',
      { message: `Files fixtures are invalid (${problems.length} problem(s))` },
      { items: problems },
    );
  }
  const now = ctx.now().toISOString();
  await ctx.store.transaction((trx) => insertTree(trx, ctx.connector.id, tree, null, now));
}
