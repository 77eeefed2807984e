import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';

/**
 * Reads a fixture file as JSON (.json) or YAML (anything else). The service's only use of `yaml`:
 * fixtures are data, not recipes, so they do not go through the engine's source/ stage.
 */
export async function readFixturesFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new FixtureFileError(file, '', `cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    return file.toLowerCase().endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new FixtureFileError(
      file,
      '',
      `not valid ${file.toLowerCase().endsWith('.json') ? 'JSON' : 'YAML'}: ${(err as Error).message.split('\n')[0]}`,
    );
  }
}

/** A fixture file that cannot be loaded; the message names the file and the JSON pointer of the problem. */
export class FixtureFileError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    detail: string,
  ) {
    super(`${file}${pointer ? ` at ${pointer}` : ''}: ${detail}`);
    this.name = 'FixtureFileError';
  }
}
