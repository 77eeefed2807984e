#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ and bundled into dist/bin/ by `npm ci` (the prepare script;
// scripts/build-cli-bundle.mjs says why it is bundled).
import('../dist/bin/main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/bin/main.js')) {
    process.stderr.write('recipe: not built yet; run `npm ci` (or `npm run build`) first\n');
    process.exit(3);
  }
  throw err;
});
