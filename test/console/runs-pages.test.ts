import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, launchBrowser, screenshot } from './browser.js';
import { startConsoleProcess, type ConsoleProcess } from './console-process.js';
import { makeJournal, SECRET, type MadeRuns } from './make-journal.js';

/**
 * The runs pages in a real browser, over a journal made by real runs of the CLI (test/console/make-journal.ts),
 * and a run followed live while it runs. Screenshots are kept as artifacts (docs/console.md shows them).
 */
const repo = new URL('../../', import.meta.url).pathname;
const bin = join(repo, 'bin/recipe.js');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let dir: string;
let runs: MadeRuns;
let consoleProc: ConsoleProcess;
let browser: Browser;
let closeBrowser: () => Promise<void>;

describe.skipIf(!haveChromium)('runs pages in Chromium', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'recipe-console-runs-pages-'));
    runs = await makeJournal(dir);
    cpSync(join(repo, 'test/console/fixtures/wait-for-hook.yaml'), join(dir, 'recipes/wait-for-hook.yaml'));
    consoleProc = await startConsoleProcess(['--port', '0'], { cwd: dir });
    ({ browser, close: closeBrowser } = await launchBrowser());
  }, 180_000);
  afterAll(async () => {
    await closeBrowser?.();
    expect(await consoleProc?.stop()).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(
    path: string,
    opts: { viewport?: typeof DESKTOP; dark?: boolean } = {},
  ): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext({
      viewport: opts.viewport ?? DESKTOP,
      colorScheme: opts.dark ? 'dark' : 'light',
    });
    const page = await context.newPage();
    await page.goto(consoleProc.url + path);
    return { page, context };
  }

  const rowTexts = (page: Page): Promise<string[]> => page.locator('table.runs tbody tr').allInnerTexts();

  it('lists the runs newest first with status, recipe, duration, requests and writes', async () => {
    const { page, context } = await open('/runs');
    await page.locator('table.runs tbody tr').first().waitFor();
    const rows = await rowTexts(page);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/failed\s+1 resume\s+contact-notes/);
    expect(rows[1]).toMatch(/succeeded\s+dry run\s+stale-deals-follow-up/);
    expect(rows[2]).toMatch(/succeeded\s+ticket-triage\s+\S+ \S+\s+\d[\d.]* m?s\s+3\s+2\s+/);
    expect(rows[2]).toContain(runs.triage);
    await screenshot(page, 'runs');
    // Filter by status: the choice goes in the address.
    await page.getByLabel('Status').selectOption('failed');
    await page.waitForURL(/status=failed/);
    await expect.poll(() => rowTexts(page)).toEqual([expect.stringContaining('contact-notes')]);
    // By recipe, typed then Enter; "Clear filters" shows everything again.
    await page.getByLabel('Status').selectOption('');
    await page.getByPlaceholder(/Recipe name/).fill('ticket-triage');
    await page.getByPlaceholder(/Recipe name/).press('Enter');
    await page.waitForURL(/recipe=ticket-triage/);
    await expect.poll(() => rowTexts(page)).toEqual([expect.stringContaining('ticket-triage')]);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect.poll(async () => (await rowTexts(page)).length).toBe(3);
    await context.close();
  });

  it('pages with "Older" and back to "Newest"', async () => {
    const { page, context } = await open('/runs?limit=2');
    await expect.poll(async () => (await rowTexts(page)).length).toBe(2);
    await page.getByRole('link', { name: 'Older →' }).click();
    await expect.poll(() => rowTexts(page)).toEqual([expect.stringContaining('ticket-triage')]);
    expect(await page.getByRole('link', { name: 'Older →' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Newest' }).click();
    await expect.poll(async () => (await rowTexts(page)).length).toBe(2);
    await context.close();
  });

  it('shows a failed run: the error, its line in the source, the steps waterfall, requests, resumes, masked inputs', async () => {
    const { page, context } = await open(`/runs/${runs.failed}`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/Failed: C005[\s\S]*deal record "999999" not found/);
    const marked = page.locator('.source .mark-error');
    expect(await marked.getAttribute('data-line')).toBe('34');
    expect(await marked.innerText()).toContain('- id: deal');
    // Scrolled to within the source box, and on the screen at 1280×800.
    await expect.poll(() => marked.evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThan(800);
    // The waterfall: one row per step, loop steps nested, each with a bar per attempt.
    const labels = await page.locator('.waterfall .wf-name').allInnerTexts();
    expect(labels).toEqual(['contacts', 'notes', 'note', 'owner_deal', 'log@31', 'summary', 'deal']);
    const deal = page.locator('.wf-row[data-step="deal"]');
    expect(await deal.innerText()).toMatch(/failed\s+deal/);
    expect(await deal.locator('.bar').count()).toBe(2);
    expect(await deal.locator('.bar.resumed').count()).toBe(1);
    expect(await page.locator('.wf-row[data-step="notes[].owner_deal"]').innerText()).toMatch(
      /continued[\s\S]*3 \(3 failed\)/,
    );
    // Iterations, aggregated in the loop's row, open with its button.
    await page.getByRole('button', { name: /3 iterations/ }).click();
    expect(await page.locator('.wf-iteration .mono').allInnerTexts()).toEqual(['notes[0]', 'notes[1]', 'notes[2]']);
    // Attempts: the run and its redrive.
    const attempts = await page.locator('table.attempts tbody tr').allInnerTexts();
    expect(attempts).toEqual([
      expect.stringMatching(/^1\s+run\s+failed/),
      expect.stringMatching(/^2\s+redrive\s+failed/),
    ]);
    // Requests with status and latency; the failed ones say why.
    const requests = page.locator('table.requests tbody tr');
    await expect.poll(() => requests.count()).toBe(11);
    expect(await page.locator('table.requests tr.state-failed').count()).toBe(4);
    expect(await requests.filter({ hasText: 'deal' }).last().innerText()).toMatch(/failed\s+404/);
    await page.getByLabel('writes only').check();
    await expect.poll(() => requests.count()).toBe(3);
    expect(await requests.first().innerText()).toMatch(/notes\.create[\s\S]*write[\s\S]*answered\s+200/);
    // Inputs: the secret passed as an input is masked; it is nowhere on the page.
    expect(await page.locator('#inputs-h + p + pre').innerText()).toContain('"requester": "***"');
    expect(await page.content()).not.toContain(SECRET);
    await page.getByRole('button', { name: /3 iterations/ }).click();
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'run-failed');
    // The recipe file links to its recipe page.
    await page.locator('.facts-row a', { hasText: 'recipes/contact-notes.yaml' }).click();
    await page.getByRole('heading', { level: 1, name: 'contact-notes' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/recipes/recipes/contact-notes.yaml');
    await context.close();
  });

  it('shows a dry run’s writes as not sent', async () => {
    const { page, context } = await open(`/runs/${runs.dryRun}`);
    await page.getByRole('heading', { level: 1, name: 'stale-deals-follow-up' }).waitFor();
    expect(await page.locator('.page-head').innerText()).toContain('dry run');
    expect(await page.locator('.facts-row').innerText()).toMatch(/Dry-run writes\s+3/i);
    await expect.poll(() => page.locator('table.requests tr.state-dry_run').count()).toBe(3);
    await context.close();
  });

  it('reads at a phone width in the dark theme', async () => {
    const { page, context } = await open(`/runs/${runs.failed}`, { viewport: PHONE, dark: true });
    await page.getByRole('alert').waitFor();
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(17, 19, 23)');
    await screenshot(page, 'run-failed-phone-dark');
    await page.goto(`${consoleProc.url}/runs`);
    await page.locator('table.runs tbody tr').first().waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
    await screenshot(page, 'runs-phone-dark');
    await context.close();
  });

  it('is usable with the keyboard: j/k to a run, Enter, j to a step, → opens its iterations', async () => {
    const { page, context } = await open('/runs');
    await page.locator('table.runs tbody tr').first().waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await page.evaluate("document.activeElement?.textContent ?? ''")).toBe('stale-deals-follow-up');
    await page.keyboard.press('k');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'contact-notes' }).waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await page.evaluate("document.activeElement?.getAttribute('data-step')")).toBe('notes');
    await page.keyboard.press('ArrowRight');
    await page.locator('.wf-iteration').first().waitFor();
    await page.keyboard.press('Enter');
    expect(await page.locator('.source .mark-select').getAttribute('data-line')).toBe('16');
    await page.keyboard.press('/');
    await page.keyboard.press('g');
    await page.keyboard.press('r');
    await page.getByRole('heading', { level: 1, name: 'Runs' }).waitFor();
    await context.close();
  });

  it('follows a running run live until it ends', async () => {
    const hook = await holdingServer();
    const runId = 'live-run-1';
    const child = spawn(
      process.execPath,
      [
        bin,
        'run',
        'recipes/wait-for-hook.yaml',
        '--fixtures',
        'recipes/crm-small.fixtures.yaml',
        '--journal',
        '.recipe/runs.db',
        '--run-id',
        runId,
        '-i',
        `url=${hook.url}`,
      ],
      { cwd: dir, stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } },
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await hook.held;
      const { page, context } = await open(`/runs/${runId}`);
      await page.getByRole('status').filter({ hasText: 'live' }).waitFor();
      expect(await page.getByTestId('run-status').innerText()).toBe('running');
      await expect.poll(() => page.locator('.wf-row[data-step="hook"]').innerText()).toMatch(/running\s+hook/);
      expect(await page.locator('.wf-row[data-step="hook"] .bar.open').count()).toBe(1);
      await screenshot(page, 'run-live');
      const list = await context.newPage();
      await list.goto(`${consoleProc.url}/runs`);
      const row = list.locator('table.runs tbody tr', { hasText: runId });
      expect(await row.innerText()).toMatch(/^running\s+wait-for-hook/);
      hook.release();
      // No reload: the page hears the end over its event stream.
      await page.getByTestId('run-status').filter({ hasText: 'succeeded' }).waitFor({ timeout: 20_000 });
      expect(await page.getByRole('status').filter({ hasText: 'live' }).count()).toBe(0);
      await expect.poll(() => page.locator('#outputs-h + pre').innerText()).toContain('"answer": true');
      expect(await page.locator('.wf-row[data-step="hook"]').innerText()).toMatch(/ok\s+hook[\s\S]*1 retry/);
      // The list, open meanwhile, reads itself again while a run is running.
      await expect.poll(() => row.innerText(), { timeout: 20_000 }).toMatch(/^succeeded\s+wait-for-hook/);
      await context.close();
      expect(await exited).toBe(0);
    } finally {
      hook.release();
      if (child.exitCode === null) child.kill('SIGTERM');
      await hook.close();
    }
  });
});

/**
 * An HTTP server the live run's hook step calls: the first request gets a 503 (a retry), the second is
 * held until release(); `held` resolves once it is.
 */
async function holdingServer(): Promise<{
  url: string;
  held: Promise<void>;
  release(): void;
  close(): Promise<void>;
}> {
  let count = 0;
  let waiting: ServerResponse | undefined;
  let released = false;
  let onHeld: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (onHeld = resolve));
  const answer = (res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  };
  const server: Server = createServer((_req, res) => {
    count++;
    if (count === 1) return void res.writeHead(503).end();
    if (released) return answer(res);
    waiting = res;
    onHeld();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    held,
    release() {
      released = true;
      if (waiting) answer(waiting);
      waiting = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
