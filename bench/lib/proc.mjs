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
 * One finished child process. `maxRssMb` is null when peak RSS could not be read.
 * @typedef {{ wallMs: number, maxRssMb: number | null, stdout: string, stderr: string, code: number }} NodeRun
 */

/**
 * Runs `node args...`; resolves {wallMs, maxRssMb, stdout, stderr, code}. Rejects when it exits non-zero
 * (a benchmark of a failing run means nothing).
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, cwd?: string }} [options]  `env` is added to this process's environment
 * @returns {Promise<NodeRun>}
 */
export async function runNode(args, { env = {}, cwd } = {}) {
  const rssFile = join(tmpdir(), `bench-rss-${process.pid}-${seq++}.txt`);
  /** @type {NodeJS.ProcessEnv} */
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
  /** @type {number | null} */
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

/**
 * Peak RSS in MB from /usr/bin/time -v's report or the preload's kB figure; null when absent or unreadable.
 * @param {string} file
 */
function readMaxRss(file) {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const gnu = /Maximum resident set size \(kbytes\):\s*(\d+)/.exec(text);
  const kb = gnu ? Number(gnu[1]) : Number(text.trim());
  return Number.isFinite(kb) && kb > 0 ? kb / 1024 : null;
}

/**
 * Sorted copy of at least one number: a figure over no samples would be NaN, so it is refused.
 * @param {number[]} xs
 * @param {string} what
 */
function sortedSamples(xs, what) {
  if (xs.length === 0) throw new Error(`${what} of no samples`);
  return [...xs].sort((a, b) => a - b);
}

/**
 * The median of some numbers (at least one).
 * @param {number[]} xs
 * @returns {number}
 */
export function median(xs) {
  const s = sortedSamples(xs, 'median');
  const m = Math.floor(s.length / 2);
  const hi = /** @type {number} */ (s[m]);
  if (s.length % 2) return hi;
  const lo = /** @type {number} */ (s[m - 1]);
  return (lo + hi) / 2;
}

/**
 * The p-th percentile (0–100, nearest rank) of some numbers (at least one).
 * @param {number[]} xs
 * @param {number} p
 * @returns {number}
 */
export function percentile(xs, p) {
  const s = sortedSamples(xs, 'percentile');
  return /** @type {number} */ (s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]);
}
