import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** Where a file a recipe writes would land, or why it would land outside the working directory. */
export type ConfinedPath = { readonly path: string } | { readonly path: string; readonly outside: string };

/**
 * Resolves a path a recipe names (download `to`) against the working directory and says whether it stays
 * inside it: not absolute, no `..` out, and no symbolic link on the way that points out (the deepest existing
 * ancestor is resolved with realpath). The file itself may be a link: it is replaced by a rename, not
 * followed. A file name from a connector, or an input, must not overwrite any file the user can write.
 */
export function confinePath(cwd: string, to: string): ConfinedPath {
  const path = resolve(cwd, to);
  if (isAbsolute(to)) return { path, outside: 'an absolute path' };
  if (!inside(resolve(cwd), path)) return { path, outside: 'it leaves it with ..' };
  const root = realpathOr(resolve(cwd));
  const parent = realAncestor(dirname(path));
  if (!inside(root, parent)) return { path, outside: `a symbolic link leads to ${parent}` };
  return { path };
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The real path of the deepest existing ancestor of `dir`, with the rest of `dir` appended. */
function realAncestor(dir: string): string {
  const rest: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    try {
      return resolve(realpathSync(at), ...rest.reverse());
    } catch {
      if (dirname(at) === at) return dir;
      rest.push(relative(dirname(at), at));
    }
  }
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
