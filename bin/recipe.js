#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm ci` (the prepare script).
import('../dist/cli/main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli/main.js')) {
    process.stderr.write('recipe: not built yet; run `npm ci` (or `npm run build`) first\n');
    process.exit(3);
  }
  throw err;
});
