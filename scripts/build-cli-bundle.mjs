// Bundles the CLI (dist/cli/main.js and everything it imports from dist/, plus the small pure-JS libraries
// below) into dist/bin/: one ES module per command, loaded by bin/recipe.js. Node's ES module loader pays
// for every file it resolves, reads and links, and a `recipe run` loaded ~210 of ours and ~100 of
// commander, yaml and semver at each start: 140 ms of wall time and 0.25 s of CPU more than the bundle
// (bench/README.md, issue 29). Run by `npm run build` after tsc.
//
// Chunks sit two folders below the package root, as every compiled module of dist/<stage>/ does, so the
// paths modules take from import.meta.url (`../../schemas/...`, `../schema/recipe-validator.js`) mean the
// same from both. Packages with native code, data files or lazy loading stay outside (node_modules), but for
// better-sqlite3's JavaScript (below).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist/bin');
/** Plain JavaScript with no files of its own to find at run time: safe to inline. */
const BUNDLED = new Set(['commander', 'yaml', 'semver', 'ignore']);
/**
 * undici's dispatchers, from their own files (src/client/undici.ts; nothing of ours imports its index at
 * run time): ~100 CommonJS files that Node's loader would resolve, read and wrap one by one. Its llhttp
 * WebAssembly is a JavaScript file holding the bytes, so nothing is looked for on disk.
 * And better-sqlite3's JavaScript (~15 files, ~12 ms of a journaled run's start through Node's ES module
 * loader): its addon is named by path at each connection (src/sqlite/library.ts), so the `bindings` lookup
 * it would otherwise make, which finds the package by walking the call stack, is never called from the bundle.
 */
const BUNDLED_FILES = ['undici/lib/', 'better-sqlite3/lib/'];
/** Required by a bundled library only on a path the CLI never takes (see above): left to node_modules. */
const NEVER_LOADED = ['bindings'];

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
// esbuild takes a package's name as every path inside it too.
const external = Object.keys(pkg.dependencies)
  .filter((name) => !BUNDLED.has(name) && !BUNDLED_FILES.some((f) => f.startsWith(`${name}/`)))
  .concat(NEVER_LOADED)
  .flatMap((name) => [name, `${name}/*`]);

/**
 * Node modules a bundled library loads at its start for a feature the CLI never uses, each answered inside
 * the bundle by what the library itself falls back to without it: undici's HTTP/2 client (src/client never
 * sets `allowH2`; undici takes `{ constants: {} }` when node:http2 cannot be loaded) and commander's
 * executable subcommands (child_process: the CLI registers none). Loading node:http2 and node:child_process
 * cost ~20–40 ms of every CLI start in a CPU profile (bench/README.md, issue 29).
 */
const UNUSED_BUILTINS = [
  {
    builtin: 'node:http2',
    importer: /undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/,
    stub: 'module.exports = { constants: {} };',
  },
  { builtin: 'node:child_process', importer: /commander[\\/]lib[\\/]command\.js$/, stub: 'module.exports = {};' },
];
/** @type {import('esbuild').Plugin} */
const unusedBuiltins = {
  name: 'unused-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:(http2|child_process)$/ }, (args) => {
      const i = UNUSED_BUILTINS.findIndex((u) => u.builtin === args.path && u.importer.test(args.importer));
      return i < 0 ? undefined : { path: String(i), namespace: 'unused-builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'unused-builtin' }, (args) => ({
      contents: UNUSED_BUILTINS[Number(args.path)]?.stub ?? '',
      loader: 'js',
    }));
  },
};

rmSync(out, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: path.join(root, 'dist/cli/main.js') },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // The inlined CommonJS libraries call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __recipeCreateRequire } from 'node:module'; const require = __recipeCreateRequire(import.meta.url);",
  },
  plugins: [unusedBuiltins],
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
const outputs = Object.values(result.metafile.outputs);
const bytes = outputs.reduce((sum, o) => sum + o.bytes, 0);
console.log(`cli: ${outputs.length} files, ${(bytes / 1024).toFixed(0)} KiB in dist/bin`);
