import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Real git repositories in a temp folder: a working clone per library, pushed to a bare repository. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: '',
};

export function tempDir(prefix = 'recipe-pkg-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: { ...process.env, ...GIT_ENV, HOME: cwd },
    encoding: 'utf8',
  }).trim();
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
}

/** A library: a bare repository (served by file:// or git daemon) and a working copy that pushes to it. */
export class Library {
  readonly bare: string;
  readonly work: string;
  constructor(root: string, name: string) {
    this.bare = join(root, 'remotes', `${name}.git`);
    this.work = join(root, 'work', name);
    mkdirSync(this.bare, { recursive: true });
    mkdirSync(this.work, { recursive: true });
    gitIn(this.bare, 'init', '--bare', '--quiet');
    gitIn(this.work, 'init', '--quiet');
    gitIn(this.work, 'remote', 'add', 'origin', this.bare);
  }
  get url(): string {
    return `file://${this.bare}`;
  }
  /** Commits the files on the current branch, pushes it, and gives the commit id. */
  commit(files: Record<string, string>, message = 'change'): string {
    writeFiles(this.work, files);
    gitIn(this.work, 'add', '-A');
    gitIn(this.work, 'commit', '--quiet', '-m', message);
    gitIn(this.work, 'push', '--quiet', '--force', 'origin', 'HEAD:refs/heads/main');
    return gitIn(this.work, 'rev-parse', 'HEAD');
  }
  tag(name: string, commit = 'HEAD'): void {
    gitIn(this.work, 'tag', '-f', name, commit);
    gitIn(this.work, 'push', '--quiet', '--force', 'origin', `refs/tags/${name}`);
  }
  /** A commit on no branch or tag, pushed only to refs/pull/N/head (what a fork's pull request leaves). */
  pullRequestCommit(files: Record<string, string>, n = 1): string {
    const base = gitIn(this.work, 'rev-parse', 'HEAD');
    gitIn(this.work, 'checkout', '--quiet', '--detach');
    writeFiles(this.work, files);
    gitIn(this.work, 'add', '-A');
    gitIn(this.work, 'commit', '--quiet', '-m', 'from a fork');
    const commit = gitIn(this.work, 'rev-parse', 'HEAD');
    gitIn(this.work, 'push', '--quiet', 'origin', `HEAD:refs/pull/${n}/head`);
    gitIn(this.work, 'checkout', '--quiet', base);
    return commit;
  }
  /** An unrelated commit (an orphan history) with these files; the tag is forced onto it. */
  forceTagToOrphan(tag: string, files: Record<string, string>): string {
    gitIn(this.work, 'checkout', '--quiet', '--orphan', `evil-${tag}`);
    writeFiles(this.work, files);
    gitIn(this.work, 'add', '-A');
    gitIn(this.work, 'commit', '--quiet', '-m', 'moved');
    const commit = gitIn(this.work, 'rev-parse', 'HEAD');
    gitIn(this.work, 'push', '--quiet', '--force', 'origin', `HEAD:refs/heads/evil-${tag}`);
    this.tag(tag, commit);
    gitIn(this.work, 'checkout', '--quiet', 'main');
    return commit;
  }
}

/** `git daemon` on 127.0.0.1 serving `base`, counting the connections it accepts (its --verbose log). */
export async function startGitDaemon(
  base: string,
): Promise<{ url: string; connections: () => number; close: () => void }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'git',
    [
      'daemon',
      '--verbose',
      '--export-all',
      '--reuseaddr',
      `--base-path=${base}`,
      '--listen=127.0.0.1',
      `--port=${port}`,
      base,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`git daemon did not start: ${log}`)), 10_000);
    const check = () => (log.includes('Ready to rumble') ? (clearTimeout(t), resolve()) : setTimeout(check, 20));
    check();
  });
  return {
    url: `git://127.0.0.1:${port}`,
    connections: () => (log.match(/Connection from/g) ?? []).length,
    close: () => child.kill('SIGTERM'),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
