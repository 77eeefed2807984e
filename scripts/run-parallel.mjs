// Runs npm scripts side by side (`node scripts/run-parallel.mjs typecheck lint`): each is one single-threaded
// process, so on a two-core CI runner the pair takes as long as the slower one instead of both. Each script's
// output is held and printed whole when it ends, so the two never interleave; the exit code is the first failure's.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        /** @type {Buffer[]} */
        const chunks = [];
        const child = spawn(npm, ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.on('data', (c) => chunks.push(c));
        child.stderr.on('data', (c) => chunks.push(c));
        child.on('error', (err) => resolve({ name, code: 1, output: `${err.message}\n` }));
        child.on('close', (code, signal) =>
          resolve({ name, code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }),
        );
      }),
  ),
);

for (const { name, code, output } of results) {
  process.stdout.write(`${output}${code === 0 ? '' : `npm run ${name} failed (exit ${code})\n`}`);
}
process.exit(results.find((r) => r.code !== 0)?.code ?? 0);
