// Child processes with wall time (performance.now) and peak RSS (/usr/bin/time -v when present,
// else the child's own process.resourceUsage().maxRSS printed by bench/lib/maxrss-preload.cjs).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const GNU_TIME = '/usr/bin/time';
const HAS_GNU_TIME = existsSync(GNU_TIME);
const PRELOAD = fileURLToPath(new URL('./maxrss-preload.cjs', import.meta.url));
let seq = 0;

/** How peak RSS is read in this run (for the report). */
export const RSS_SOURCE = HAS_GNU_TIME ? '/usr/bin/time -v' : 'process.resourceUsage().maxRSS';

/**
 * Runs `node args...`; resolves {wallMs, maxRssMb, stdout, stderr, code}. Rejects when it exits non-zero
 * (a benchmark of a failing run means nothing).
 */
export async function runNode(args, { env = {}, cwd } = {}) {
  const rssFile = join(tmpdir(), `bench-rss-${process.pid}-${seq++}.txt`);
  const childEnv = { ...process.env, ...env };
  let cmd = process.execPath;
  let argv = args;
  if (HAS_GNU_TIME) {
    cmd = GNU_TIME;
    argv = ['-v', '-o', rssFile, process.execPath, ...args];
  } else {
    childEnv.BENCH_MAXRSS_FILE = rssFile;
    childEnv.NODE_OPTIONS = `${childEnv.NODE_OPTIONS ?? ''} --require ${PRELOAD}`.trim();
  }
  const t0 = performance.now();
  const child = spawn(cmd, argv, { env: childEnv, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const wallMs = performance.now() - t0;
  const maxRssMb = readMaxRss(rssFile);
  rmSync(rssFile, { force: true });
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}\n${stderr.slice(-2000)}`);
  return { wallMs, maxRssMb, stdout, stderr, code };
}

function readMaxRss(file) {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const gnu = /Maximum resident set size \(kbytes\):\s*(\d+)/.exec(text);
  const kb = gnu ? Number(gnu[1]) : Number(text.trim());
  return Number.isFinite(kb) && kb > 0 ? kb / 1024 : null;
}

/** The median of some numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The p-th percentile (0–100, nearest rank). */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
