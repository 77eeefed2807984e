import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
