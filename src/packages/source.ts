/**
 * Where a `call:` points: a relative path (today's form), a git repository or an npm package. The short forms
 * follow what Terraform (`//` between the repository and the path inside it) and GitHub Actions / Deno
 * (`@ref` at the end, `npm:` prefix) users already type:
 *
 *   git:https://example.com/acme/recipes.git//crm/count-by-stage.yaml@v1.4.0
 *   npm:@acme/crm-recipes@^1.4/count-by-stage.yaml
 *   { git: https://example.com/acme/recipes.git, ref: v1.4.0, path: crm/count-by-stage.yaml }
 *   { npm: "@acme/crm-recipes", version: "^1.4", path: count-by-stage.yaml }
 */

// The one function parsing needs: `semver` whole is 47 modules, loaded by every recipe's compile.
import validRange from 'semver/ranges/valid.js';

export interface GitSource {
  readonly kind: 'git';
  readonly url: string;
  /** A tag, a branch, a semver range over vX.Y.Z tags, or a full commit id. */
  readonly ref: string;
  /** The recipe file inside the repository (forward slashes, no `..`). */
  readonly path: string;
}

export interface NpmSource {
  readonly kind: 'npm';
  readonly name: string;
  /** A version or a semver range (`^1.4`, `1.4.2`, `latest`). */
  readonly range: string;
  readonly path: string;
}

export interface RelativeSource {
  readonly kind: 'relative';
  readonly path: string;
}

export type PackageSource = GitSource | NpmSource;
export type CallSource = PackageSource | RelativeSource;

/** A source that could not be read, and why (the caller turns it into a diagnostic). */
export interface SourceProblem {
  readonly problem: string;
}

const COMMIT = /^[0-9a-f]{40}$/;
const NPM_NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;

/** Reads a `call:` value: a string (relative path or short form) or an object form. */
export function parseCallSource(value: unknown): CallSource | SourceProblem {
  if (typeof value === 'string') {
    if (value.startsWith('git:')) return parseGitShort(value.slice(4));
    if (value.startsWith('npm:')) return parseNpmShort(value.slice(4));
    return { kind: 'relative', path: value };
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    if (typeof o.git === 'string')
      return checkGit({ kind: 'git', url: o.git, ref: String(o.ref ?? ''), path: String(o.path ?? '') });
    if (typeof o.npm === 'string')
      return checkNpm({ kind: 'npm', name: o.npm, range: String(o.version ?? ''), path: String(o.path ?? '') });
  }
  return { problem: 'call takes a relative path, git:URL//PATH@REF, npm:NAME@RANGE/PATH, or {git|npm, ...}' };
}

/** `URL//path@ref`: the `//` after the URL's own `scheme://`, the ref after the last `@` of the path part. */
function parseGitShort(rest: string): GitSource | SourceProblem {
  const schemeEnd = rest.indexOf('://');
  const split = rest.indexOf('//', schemeEnd >= 0 ? schemeEnd + 3 : 0);
  if (split < 0)
    return { problem: 'a git source is git:URL//PATH@REF (two slashes before the path in the repository)' };
  const url = rest.slice(0, split);
  const pathRef = rest.slice(split + 2);
  const at = pathRef.lastIndexOf('@');
  if (at < 0) return { problem: 'a git source needs @REF at the end (a tag, branch, semver range or commit id)' };
  return checkGit({ kind: 'git', url, path: pathRef.slice(0, at), ref: pathRef.slice(at + 1) });
}

/** `@scope/name@range/path` or `name@range/path`. */
function parseNpmShort(rest: string): NpmSource | SourceProblem {
  const m = /^((?:@[^/@]+\/)?[^/@]+)@([^/]+)\/(.+)$/.exec(rest);
  if (!m) return { problem: 'an npm source is npm:NAME@RANGE/PATH (e.g. npm:@acme/crm-recipes@^1.4/count.yaml)' };
  return checkNpm({ kind: 'npm', name: m[1]!, range: m[2]!, path: m[3]! });
}

function checkGit(s: GitSource): GitSource | SourceProblem {
  if (!/^(https?|file|git|ssh):\/\/[^\s]+$/.test(s.url) && !/^[\w.-]+@[\w.-]+:[^\s]+$/.test(s.url))
    return { problem: `"${s.url}" is not a git URL (https://, ssh://, git://, file:// or user@host:path)` };
  if (s.ref === '' || (!isRange(s.ref) && (/[\s~^:?*[\\]/.test(s.ref) || s.ref.includes('..'))))
    return { problem: `"${s.ref}" is not a ref (a tag, branch, semver range or full commit id)` };
  return checkPath(s);
}

function checkNpm(s: NpmSource): NpmSource | SourceProblem {
  if (!NPM_NAME.test(s.name)) return { problem: `"${s.name}" is not an npm package name` };
  // A version, a semver range or a dist-tag: never a file:, git: or URL spec that npm would also take.
  if (s.range === '' || (validRange(s.range) === null && !/^[a-z][\w.-]*$/i.test(s.range)))
    return { problem: `"${s.range}" is not a version, semver range or dist-tag` };
  return checkPath(s);
}

function checkPath<T extends PackageSource>(s: T): T | SourceProblem {
  const parts = s.path.split('/');
  if (s.path === '' || s.path.startsWith('/') || parts.some((p) => p === '..' || p === '' || p === '.'))
    return { problem: `"${s.path}" is not a path inside the package (relative, forward slashes, no ..)` };
  return s;
}

/** True when a ref reads as a semver range rather than a plain name (^1.4, ~1.2.0, >=1 <2, 1.x). */
export function isRange(ref: string): boolean {
  return /^[\^~<>=]/.test(ref) || /^v?\d+(\.(\d+|x|\*))?(\.(\d+|x|\*))?$/.test(ref) || ref.includes(' ');
}

export function isCommitId(ref: string): boolean {
  return COMMIT.test(ref);
}

/** The lock's key for a package: its source and requested ref, without the file inside it. */
export function packageKey(s: PackageSource): string {
  return s.kind === 'git' ? `git:${s.url}@${s.ref}` : `npm:${s.name}@${s.range}`;
}

export function isProblem(v: CallSource | SourceProblem): v is SourceProblem {
  return 'problem' in v;
}

/** The short form naming `file` (a path inside the package) of a package source: how diagnostics name it. */
export function describeSource(s: PackageSource, file: string): string {
  return s.kind === 'git' ? `git:${s.url}//${file}@${s.ref}` : `npm:${s.name}@${s.range}/${file}`;
}
