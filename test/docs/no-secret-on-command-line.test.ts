/**
 * No secret on a command line in our docs (issue 23 point 7): a command line is visible to every user of the
 * machine (`ps`) and stays in shell history, so no example in README.md or docs/ passes `--client-secret`;
 * they export CONNECTOR_CLIENT_SECRET instead, and `recipe serve --help` says why.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import { docFiles, extractBlocks } from './doc-examples.js';

describe('docs examples keep secrets off the command line', () => {
  it('no code block passes --client-secret or a client_secret in curl -d', () => {
    const found = docFiles().flatMap((file) =>
      extractBlocks(file)
        // Shell blocks only: a JSON block showing the token request's body is the API's documentation.
        .filter((b) => ['sh', 'bash', 'shell', 'console', ''].includes(b.lang))
        .filter((b) => /--client-secret\s|-d\s+'[^']*"client_secret"\s*:\s*"/.test(b.text))
        .map((b) => `${b.file}:${b.line}`),
    );
    expect(found).toEqual([]);
  });

  it('recipe serve --help says to pass the secret through the environment', async () => {
    const help = (await runCli(['serve', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('Pass a secret through the environment, not --client-secret');
    expect(help).toContain('prefer CONNECTOR_CLIENT_SECRET');
  });
});
