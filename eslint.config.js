// Lint that keeps the house rules (docs/architecture.md) enforced rather than held by care.
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const engine = [
  'source',
  'schema',
  'compile',
  'expr',
  'run',
  'steps',
  'calls',
  'frame',
  'client',
  'errors',
  'catalog',
  'journal',
];

/** Zones: `target` may not import from `from`. Folder names are relative to src/. */
const zone = (target, from, message) => ({ target: `./src/${target}`, from: `./src/${from}`, message });

/**
 * The service's parts, top to bottom (docs/architecture.md): each imports only parts after it. The
 * composition root (app.ts, start.ts, compose.ts in src/service/) sits above them all.
 */
const serviceLayers = [
  'routes',
  'seed',
  'skills',
  'inspect',
  'openapi',
  'auth',
  'http',
  'idempotency',
  'connectors',
  'context-store',
  'store',
  'core',
];
const serviceRoot = ['app.ts', 'start.ts', 'compose.ts'];
const serviceZones = serviceLayers.flatMap((part, i) => [
  ...serviceLayers
    .slice(0, i)
    .map((upper) =>
      zone(
        `service/${part}`,
        `service/${upper}`,
        `service/${part}/ sits below service/${upper}/: imports go down only.`,
      ),
    ),
  ...serviceRoot.map((file) =>
    zone(`service/${part}`, `service/${file}`, 'Only the composition root imports app.ts, start.ts, compose.ts.'),
  ),
]);

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', '.recipe/', 'bench/results.json'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      // Dead imports and variables go (a deliberately unused parameter starts with _).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...engine.map((dir) => zone(dir, 'service', 'The engine never imports the service: they meet over HTTP.')),
            ...engine.map((dir) => zone(dir, 'cli', 'Only the CLI edge imports cli/.')),
            zone('source', 'schema', 'compile → schema → source: source/ is the bottom stage.'),
            zone('source', 'compile', 'compile → schema → source: source/ is the bottom stage.'),
            zone('schema', 'compile', 'compile → schema → source: schema/ does not import compile/.'),
            // The engine's middle, top to bottom: run/ (start, resume, end) → steps/ → calls/ → frame/ → client/.
            ...['run', 'steps', 'calls', 'frame'].map((dir) =>
              zone('client', dir, 'run → steps → calls → client: the client knows nothing of the interpreter.'),
            ),
            ...['run', 'steps', 'calls'].map((dir) =>
              zone('frame', dir, 'frame/ (context, scope, eval, report) is the bottom of the interpreter.'),
            ),
            ...['run', 'steps'].map((dir) =>
              zone('calls', dir, 'steps → calls: a call knows its step visit, never the step kinds or the run.'),
            ),
            zone('steps', 'run', 'run → steps: starting and ending a run sits above the step kinds.'),
            zone('client', 'journal', 'run → journal: the journal sits above the client, at the run/client boundary.'),
            ...['run', 'steps', 'calls', 'frame', 'client', 'compile', 'expr', 'source', 'schema'].map((dir) =>
              zone(
                'journal',
                dir,
                'journal/ knows call keys and answers, not step semantics: it imports only errors/.',
              ),
            ),
            zone('expr', 'compile', 'compile → expr: expr/ owns the types it needs (compile/plan.ts re-exports them).'),
            zone('service', 'cli', 'Only the CLI edge imports cli/.'),
            // A leaf that both halves import: it imports nothing else of src/.
            ...['sqlite'].map((dir) => ({
              target: `./src/${dir}`,
              from: './src',
              except: [`./${dir}`],
              message: `${dir}/ is a leaf the engine and the service share: it imports nothing else of src/.`,
            })),
            ...serviceZones,
            ...engine.map((dir) => zone(dir, 'console', 'cli/ → console/: nothing below the console imports it.')),
            zone('console', 'service', 'The console reads the service over HTTP, like any client.'),
            zone('console', 'cli', 'Only the CLI edge imports cli/.'),
            zone(
              'console/web',
              'console/!(api-types.ts|run-api-types.ts|web)',
              'The browser code shares only the API types.',
            ),
          ],
        },
      ],
    },
  },
  {
    // OpenTelemetry is used from src/telemetry/ only, so it can be replaced (or left unloaded) in one place.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['src/telemetry/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@opentelemetry/*'], message: 'Only src/telemetry/ imports OpenTelemetry.' }] },
      ],
    },
  },
  {
    // Tests read JSON bodies whose shape they then assert; `any` is allowed there, never in src/.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.base],
  },
  {
    ...comments.recommended,
    rules: {
      ...comments.recommended.rules,
      // A disabled rule says why on the same line: `// eslint-disable-next-line rule -- reason`.
      '@eslint-community/eslint-comments/require-description': ['error', { ignore: [] }],
    },
  },
);
