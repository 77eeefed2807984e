// Runs npm scripts side by side (`node scripts/run-parallel.mjs vitest typecheck lint`). The first one streams
// its output as it goes (the long test run shows its progress); the others are held and printed whole after it,
// so nothing interleaves. Type checking and lint are single-threaded and the test run waits on child processes,
// timers and servers, so on a two-core CI runner they fill its idle time instead of running before it. The exit
// code is the first failure's.
import { spawn } from 'node:child_process';

const [live, ...held] = process.argv.slice(2);
if (live === undefined) {
  process.stderr.write('usage: node scripts/run-parallel.mjs SCRIPT [SCRIPT...]\n');
  process.exit(2);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** @param {string} name @param {boolean} stream */
function runScript(name, stream) {
  return new Promise((resolve) => {
    /** @type {Buffer[]} */
    const chunks = [];
    const child = spawn(npm, ['run', name], {
      stdio: ['ignore', stream ? 'inherit' : 'pipe', stream ? 'inherit' : 'pipe'],
    });
    child.stdout?.on('data', (c) => chunks.push(c));
    child.stderr?.on('data', (c) => chunks.push(c));
    child.on('error', (err) => resolve({ name, code: 1, output: `${err.message}\n` }));
    child.on('close', (code, signal) =>
      resolve({ name, code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }),
    );
  });
}

const results = await Promise.all([runScript(live, true), ...held.map((name) => runScript(name, false))]);

for (const { name, code, output } of results) {
  process.stdout.write(`${output}${code === 0 ? '' : `npm run ${name} failed (exit ${code})\n`}`);
}
process.exit(results.find((r) => r.code !== 0)?.code ?? 0);
