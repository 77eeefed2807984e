import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { writeFiles } from './git-repos.js';

/**
 * The npm registry protocol, just enough for `npm pack NAME@RANGE`: a packument per package name and the
 * tarballs `npm pack` made from folders. Counts every request it answers.
 */
export class TinyRegistry {
  private server: Server | undefined;
  private readonly packages = new Map<string, Map<string, Buffer>>();
  requests = 0;
  url = '';

  /** Packs `files` (with a package.json made here) as name@version with the real `npm pack`. */
  publish(work: string, name: string, version: string, files: Record<string, string>): void {
    const dir = join(work, `${name.replace(/[@/]/g, '_')}-${version}`);
    mkdirSync(dir, { recursive: true });
    writeFiles(dir, { ...files, 'package.json': JSON.stringify({ name, version, files: ['**/*.yaml'] }) });
    const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, npm_config_cache: join(work, '.npm-cache') },
    });
    const [info] = JSON.parse(out) as { filename: string }[];
    const versions = this.packages.get(name) ?? new Map<string, Buffer>();
    versions.set(version, readFileSync(join(dir, info!.filename)));
    this.packages.set(name, versions);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.requests++;
      const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
      const tarball = /^\/-\/tarballs\/(.+)\/([^/]+)\.tgz$/.exec(path);
      if (tarball) {
        const data = this.packages.get(tarball[1]!)?.get(tarball[2]!);
        if (!data) return void res.writeHead(404).end();
        return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(data);
      }
      const name = path.slice(1);
      const versions = this.packages.get(name);
      if (!versions)
        return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      const doc = {
        name,
        'dist-tags': { latest: [...versions.keys()].at(-1) },
        versions: Object.fromEntries(
          [...versions].map(([version, data]) => [
            version,
            {
              name,
              version,
              dist: {
                tarball: `${this.url}/-/tarballs/${encodeURIComponent(name)}/${version}.tgz`,
                integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
                shasum: createHash('sha1').update(data).digest('hex'),
              },
            },
          ]),
        ),
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
