import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

/** Masking that matches what people do with secrets (issue 12 point 7), end to end through `recipe run`. */
const fixtures = new URL('./fixtures/crm.yaml', import.meta.url).pathname;

describe('derived forms of a secret in every output', () => {
  it('upper-, lower-cased, URL-encoded and base64 forms are masked in logs, outputs and the JSON report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-mask-'));
    const file = join(dir, 'forms.yaml');
    writeFileSync(
      file,
      `version: 1
name: forms
secrets: [API_KEY]
steps:
  - log: "upper \${ $uppercase($secrets.API_KEY) } lower \${ $lowercase($secrets.API_KEY) }"
  - log: "url \${ $encodeUrlComponent($secrets.API_KEY) } b64 \${ $base64encode($secrets.API_KEY) }"
  - log: "basic \${ $base64encode('bot:' & $secrets.API_KEY) }"
outputs:
  upper: "\${ $uppercase($secrets.API_KEY) }"
  b64: "\${ $base64encode($secrets.API_KEY) }"
  url: "\${ $encodeUrlComponent($secrets.API_KEY) }"
`,
    );
    const secret = 'MixedCase/Key+42 ok';
    const forms = [
      secret,
      secret.toUpperCase(),
      secret.toLowerCase(),
      encodeURIComponent(secret),
      Buffer.from(secret).toString('base64'),
    ];
    for (const args of [[], ['--json']]) {
      const r = await runCli(['run', file, '--fixtures', fixtures, ...args], { env: { API_KEY: secret } });
      expect(r.code).toBe(0);
      for (const form of forms) expect(r.stdout + r.stderr).not.toContain(form);
      expect(r.stderr).toContain('upper *** lower ***');
    }
  });
});

/**
 * Secrets masked by value across runs (issue 26 point 7): the service's data holds the value of a secret that
 * recipe `keep` declares (as if `keep` had written it there); recipe `read`, in a subfolder of the same
 * project, declares no secret and reads that data back. Its output, report, journal and `runs show` hold ***
 * instead, because the variable is set in the run's environment.
 */
describe('secrets of the project masked in every run', () => {
  it('a recipe without the secret reads it from the service: masked in its report, journal and runs show', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-mask-project-'));
    const secret = 'pr0ject-Secret-77';
    writeFileSync(
      join(dir, 'keep.yaml'),
      `version: 1
name: keep
secrets: [VAULT_PASSWORD]
steps:
  - log: "\${ $length($secrets.VAULT_PASSWORD) }"
`,
    );
    mkdirSync(join(dir, 'reports'));
    writeFileSync(
      join(dir, 'reports', 'read.yaml'),
      `version: 1
name: read
connector: { workspace: default, definition: CRM }
steps:
  - id: contact
    execute: { entity: contacts, action: get, params: { contactId: "101", properties: firstname } }
  - log: "\${ 'name ' & $contact.properties.firstname }"
outputs:
  name: "\${ $contact.properties.firstname }"
`,
    );
    const fixtures = join(dir, 'crm.fixtures.yaml');
    writeFileSync(
      fixtures,
      `connectors:
  - type: CRM
    data:
      contacts:
        - { id: "101", properties: { email: ada@example.com, firstname: ${secret} } }
`,
    );
    const journal = join(dir, 'runs.db');
    const env = { RECIPE_JOURNAL: journal, VAULT_PASSWORD: secret };
    const r = await runCli(['run', 'reports/read.yaml', '--fixtures', fixtures, '--json', '--run-id', 'masked'], {
      cwd: dir,
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { outputs: unknown }).outputs).toEqual({ name: '***' });
    expect(r.stderr).toContain('name ***');
    expect(r.stdout + r.stderr).not.toContain(secret);
    const shown = await runCli(['runs', 'show', 'masked', '--json'], { cwd: dir, env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('"name": "***"');
    expect(shown.stdout).not.toContain(secret);
    const stored = new Database(journal, { readonly: true });
    const rows = JSON.stringify(stored.prepare(`SELECT * FROM exchanges WHERE run_id = 'masked'`).all());
    const runRow = JSON.stringify(stored.prepare(`SELECT * FROM runs WHERE run_id = 'masked'`).all());
    stored.close();
    // The answer was journaled (masked), not left out: the check above is not vacuous.
    expect(rows).toContain('firstname');
    expect(rows + runRow).not.toContain(secret);
  }, 60_000);
});
