import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { RecipeError } from '../errors/index.js';
import { isCommitId, isRange, type GitSource } from './source.js';

/**
 * The user's own `git`, with their credentials, and nothing of a repository's own making runs: no hooks
 * (core.hooksPath=/dev/null), no prompt (GIT_TERMINAL_PROMPT=0), no protocol other than the usual ones.
 */
export function git(args: readonly string[], opts: { cwd?: string; url: string; input?: boolean }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'core.hooksPath=/dev/null', '-c', 'protocol.ext.allow=never', '-c', 'core.fsmonitor=false', ...args],
      {
        cwd: opts.cwd,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '', GIT_CONFIG_NOSYSTEM: '1' },
        encoding: 'buffer',
        maxBuffer: 256 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        if (err) {
          const reason = stderr.toString('utf8').trim().split('\n').slice(-2).join(' ') || err.message;
          reject(new RecipeError('P010', { command: args[0], url: opts.url, reason }));
        } else resolve(stdout);
      },
    );
  });
}

/** The refs of a remote repository: full ref name → commit (annotated tags peeled). */
export async function listRemoteRefs(url: string): Promise<Map<string, string>> {
  const out = (await git(['ls-remote', '--', url], { url })).toString('utf8');
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [commit, name] = line.split('\t');
    if (!commit || !name) continue;
    if (name.endsWith('^{}')) refs.set(name.slice(0, -3), commit);
    else if (!refs.has(name)) refs.set(name, commit);
  }
  return refs;
}

/** Where a requested ref points: the full ref name it resolved through (none for a commit id) and the commit. */
export interface ResolvedRef {
  readonly refName: string | null;
  readonly kind: 'tag' | 'branch' | 'semver' | 'commit';
  readonly commit: string;
}

/** Resolves a ref against the remote's refs: a full commit id, an exact tag, a branch, then a semver range. */
export function resolveRef(source: Pick<GitSource, 'url' | 'ref'>, refs: ReadonlyMap<string, string>): ResolvedRef {
  const { ref, url } = source;
  if (isCommitId(ref)) return { refName: null, kind: 'commit', commit: ref };
  const tag = refs.get(`refs/tags/${ref}`);
  if (tag) return { refName: `refs/tags/${ref}`, kind: 'tag', commit: tag };
  const branch = refs.get(`refs/heads/${ref}`);
  if (branch) return { refName: `refs/heads/${ref}`, kind: 'branch', commit: branch };
  if (isRange(ref) && semver.validRange(ref)) {
    const versions = [...refs.keys()]
      .filter((r) => r.startsWith('refs/tags/v'))
      .map((r) => r.slice('refs/tags/v'.length))
      .filter((v) => semver.valid(v) !== null);
    const best = semver.maxSatisfying(versions, ref);
    if (!best) throw new RecipeError('P012', { url, range: ref });
    const name = `refs/tags/v${best}`;
    return { refName: name, kind: 'semver', commit: refs.get(name)! };
  }
  throw new RecipeError('P011', { ref, url });
}

/**
 * A bare mirror of the branches and tags of `url` under the store (one per URL), brought up to date. Only
 * refs/heads and refs/tags are fetched: a commit reachable only from refs/pull/* (a fork's pull request on
 * GitHub) is then absent, which is how an impostor commit is caught.
 */
export async function mirror(storeRoot: string, url: string): Promise<string> {
  const dir = path.join(storeRoot, 'git', createHash('sha256').update(url).digest('hex').slice(0, 32) + '.git');
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    await git(['init', '--bare', '--quiet', dir], { url });
  }
  await git(
    [
      'fetch',
      '--quiet',
      '--force',
      '--prune',
      '--no-tags',
      '--',
      url,
      '+refs/heads/*:refs/heads/*',
      '+refs/tags/*:refs/tags/*',
    ],
    { cwd: dir, url },
  );
  return dir;
}

/** True when `commit` is in the mirror and reachable from one of its branches or tags. */
export async function reachableFromRefs(mirrorDir: string, url: string, commit: string): Promise<boolean> {
  const out = (
    await git(['for-each-ref', '--format=%(refname)', '--contains', commit, 'refs/heads', 'refs/tags'], {
      cwd: mirrorDir,
      url,
    }).catch(() => Buffer.from(''))
  ).toString('utf8');
  return out.trim() !== '';
}

/** True when `descendant` is `ancestor` or descends from it. */
export async function descendsFrom(
  mirrorDir: string,
  url: string,
  ancestor: string,
  descendant: string,
): Promise<boolean> {
  try {
    await git(['merge-base', '--is-ancestor', ancestor, descendant], { cwd: mirrorDir, url });
    return true;
  } catch {
    return false;
  }
}

/** The tree of `commit` as a tar archive (git archive: regular files, symlinks as links, no .git). */
export function archive(mirrorDir: string, url: string, commit: string): Promise<Buffer> {
  return git(['archive', '--format=tar', commit], { cwd: mirrorDir, url });
}
