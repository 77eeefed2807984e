import { readFile } from 'node:fs/promises';
import { RecipeError, type Diagnostic } from '../../errors/index.js';
import { loadSource, makeDiagnostic, nestsDeeperThan, SOURCE_LIMITS } from '../../source/index.js';

/** Input values as given on the command line, or why they cannot be read (the same diagnostics as a recipe's). */
export type GivenInputs =
  | { readonly values: Record<string, unknown>; readonly diagnostics: [] }
  | { readonly values?: undefined; readonly diagnostics: Diagnostic[] };

/**
 * `--inputs FILE` (a YAML or JSON object: JSON is YAML, and the same parser gives line:col diagnostics for
 * both), then each `-i name=value` over it. A malformed `-i` throws I001.
 */
export async function readGivenInputs(file: string | undefined, pairs: readonly string[] = []): Promise<GivenInputs> {
  const given: Record<string, unknown> = {};
  if (file !== undefined) {
    let value = await parsedJson(file);
    if (value === undefined) {
      const source = await loadSource(file);
      if (source.diagnostics.length > 0 || source.value === undefined) return { diagnostics: source.diagnostics };
      value = source.value;
    }
    // As deep as a recipe may nest, and no deeper: later stages (coercion, the journal) recurse over it.
    if (nestsDeeperThan(value, SOURCE_LIMITS.maxDepth))
      return {
        diagnostics: [makeDiagnostic('Y013', { limit: SOURCE_LIMITS.maxDepth }, { file, line: 1, column: 1 })],
      };
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new RecipeError(
        'I001',
        { name: file, reason: 'the inputs file must hold an object (name: value, in YAML or JSON)' },
        { file, line: 1, column: 1 },
      );
    }
    // Own properties only, whatever their names (a `__proto__` key stays a key, as YAML gives it).
    for (const [name, v] of Object.entries(value))
      Object.defineProperty(given, name, { value: v, enumerable: true, writable: true, configurable: true });
  }
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new RecipeError('I001', { name: pair, reason: 'expected -i name=value' });
    // defineProperty, not assignment: `-i __proto__=1` is an input named __proto__ (refused as unknown).
    Object.defineProperty(given, pair.slice(0, eq), {
      value: pair.slice(eq + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { values: given, diagnostics: [] };
}

/**
 * A `.json` inputs file read with JSON.parse: the YAML parser with its locator takes ~60 µs per value (117 ms
 * for 2,000 ids, against 0.5 ms), and a fan-out's inputs are exactly such lists. Undefined when the file is not
 * .json or not valid JSON: the YAML path then gives the same value, or the diagnostics with line:col.
 */
async function parsedJson(file: string): Promise<unknown> {
  if (!file.toLowerCase().endsWith('.json')) return undefined;
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}
