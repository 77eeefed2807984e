import { closest, distance } from '../source/index.js';

/**
 * ` (did you mean "x"?)` for an unknown name, or ''. Tries, in order: a typo (two edits at most); a
 * candidate whose description names the last word of the unknown one (hs_task_title → hs_task_subject,
 * "Task title."); a looser spelling match; a required name still missing that ends with it (id →
 * contactId); the one candidate containing it (search → api_search).
 */
export function hintFor(
  name: string,
  candidates: readonly string[],
  missing: readonly string[] = [],
  describe: (candidate: string) => string = () => '',
): string {
  const near = closest(name, candidates);
  const typo = near !== undefined && distance(name.toLowerCase(), near.toLowerCase()) <= 2 ? near : undefined;
  const found =
    quote(typo) ??
    quote(byDescription(name, candidates, describe)) ??
    quote(near) ??
    quote(only(missing.filter((m) => m.toLowerCase().endsWith(name.toLowerCase())))) ??
    containing(name, candidates);
  return found === undefined ? '' : ` (did you mean ${found}?)`;
}

function byDescription(
  name: string,
  candidates: readonly string[],
  describe: (c: string) => string,
): string | undefined {
  const word = name.split(/[_.-]/).pop()?.toLowerCase() ?? '';
  if (word.length < 4) return undefined;
  const re = new RegExp(`\\b${word.replace(/[^a-z0-9]/g, '')}\\b`, 'i');
  return only(candidates.filter((c) => re.test(describe(c))));
}

/** `"a"` or `"a" or "b"`: the one or two candidates that contain the name (search → api_search). */
function containing(name: string, candidates: readonly string[]): string | undefined {
  if (name.length < 3) return undefined;
  const found = candidates.filter((c) => c.toLowerCase().includes(name.toLowerCase()));
  return found.length > 0 && found.length <= 2 ? found.map((c) => `"${c}"`).join(' or ') : undefined;
}

function quote(name: string | undefined): string | undefined {
  return name === undefined ? undefined : `"${name}"`;
}

function only(list: readonly string[]): string | undefined {
  return list.length === 1 ? list[0] : undefined;
}

/** `; allowed: a, b, c` (at most 30 names), or '' when there are none. */
export function listNames(names: readonly string[], label = 'allowed'): string {
  if (names.length === 0) return '';
  const shown = names.length > 30 ? [...names.slice(0, 30), `… (${names.length - 30} more)`] : names;
  return `; ${label}: ${shown.join(', ')}`;
}
