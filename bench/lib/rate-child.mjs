// One side of the rate-limit figure: the fan-out recipe through the library with the client's rate
// adaptation on or off (`new ConnectorClient({ adaptiveRate })`). Every request retried here was answered
// 429 (the service has no other failure in this figure), so the client's retries count the 429s.
// Usage: node bench/lib/rate-child.mjs INPUTS.json on|off   (CONNECTOR_* in the environment)
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ConnectorClient, completeConnectionConfig, readConnectionConfig, runRecipe } from '../../dist/index.js';

const [inputsFile, mode] = process.argv.slice(2);
if (!inputsFile || (mode !== 'on' && mode !== 'off')) throw new Error('usage: rate-child.mjs INPUTS.json on|off');
const { ids } = JSON.parse(readFileSync(inputsFile, 'utf8'));
const config = completeConnectionConfig(readConnectionConfig({}, process.env));
const client = new ConnectorClient({ ...config, adaptiveRate: mode === 'on' });
const t0 = performance.now();
const result = await runRecipe('bench/recipes/rate-fan-out.yaml', { client, inputs: { ids } });
const wallMs = performance.now() - t0;
await client.close();
if (!result.report) throw new Error(JSON.stringify(result.diagnostics));
// Without adaptation a request can spend every attempt on 429s and fail the run: that is a result too.
const { status, outputs } = result.report;
const { requests, retries } = client.stats;
process.stdout.write(
  `${JSON.stringify({ wallMs, requests, tooMany: retries, status, count: outputs?.count ?? null })}\n`,
);
