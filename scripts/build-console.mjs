// Builds the web console's front end into dist/console/assets/: one minified ES module bundle (Preact
// included, nothing from a CDN), the stylesheet, and index.html. Run by `npm run build` after tsc.
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'src/console/web');
const out = path.join(root, 'dist/console/assets');
mkdirSync(out, { recursive: true });

await build({
  // main.tsx imports styles.css, so the bundle comes out as app.js and app.css.
  entryPoints: { app: path.join(web, 'main.tsx') },
  outdir: out,
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: path.join(web, 'tsconfig.json'),
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(path.join(web, 'index.html'), path.join(out, 'index.html'));

/** @param {string} f */
const size = (f) => statSync(path.join(out, f)).size;
console.log(
  `console: app.js ${(size('app.js') / 1024).toFixed(1)} KiB, app.css ${(size('app.css') / 1024).toFixed(1)} KiB`,
);
