import { isAbsolute, join, relative, sep } from 'node:path';

/**
 * Recipe paths as the journal keeps them: relative to the recipes directory when under it, so that a worker
 * on another machine, whose copy of the recipes lives elsewhere, resumes the run (and reads its history)
 * with paths of its own. Shared by the fleet's backends (Redis, PostgreSQL). Without a root, paths are kept and shown as given.
 */
export class PathCodec {
  constructor(private readonly root: string | undefined) {}

  /** The path as stored. */
  store(path: string): string {
    if (this.root === undefined || !isAbsolute(path)) return path;
    const rel = relative(this.root, path);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return path;
    return rel.split(sep).join('/');
  }

  /** The stored path as this process sees it. */
  load(path: string): string {
    if (this.root === undefined || isAbsolute(path)) return path;
    return join(this.root, path);
  }
}
