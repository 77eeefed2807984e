import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, launchBrowser, screenshot } from './browser.js';
import { startConsoleProcess, type ConsoleProcess } from './console-process.js';

/**
 * The console's recipe and service pages in a real browser: `recipe console` started as a user would (the
 * embedded service as the default), Chromium driven by playwright-core, screenshots kept as artifacts.
 */
const repo = new URL('../../', import.meta.url).pathname;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let dir: string;
let consoleProc: ConsoleProcess;
let browser: Browser;
let closeBrowser: () => Promise<void>;

describe.skipIf(!haveChromium)('console pages in Chromium', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'recipe-console-'));
    cpSync(join(repo, 'recipes'), join(dir, 'recipes'), { recursive: true });
    cpSync(join(repo, 'test/console/fixtures/graph-demo.yaml'), join(dir, 'recipes/graph-demo.yaml'));
    cpSync(join(repo, 'test/console/fixtures/lib/count.yaml'), join(dir, 'recipes/lib/count.yaml'));
    writeFileSync(
      join(dir, 'recipes/broken.yaml'),
      'version: 1\nname: broken\nsteps:\n  - id: a\n    transform: "${ $nope }"\n  - id: b\n    execute: { entity: deals }\n',
    );
    consoleProc = await startConsoleProcess(['--port', '0'], { cwd: dir });
    ({ browser, close: closeBrowser } = await launchBrowser());
  });
  afterAll(async () => {
    await closeBrowser?.();
    expect(await consoleProc?.stop()).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(
    path: string,
    opts: { viewport?: typeof DESKTOP; dark?: boolean } = {},
  ): Promise<{
    page: Page;
    context: BrowserContext;
  }> {
    const context = await browser.newContext({
      viewport: opts.viewport ?? DESKTOP,
      colorScheme: opts.dark ? 'dark' : 'light',
    });
    const page = await context.newPage();
    await page.goto(consoleProc.url + path);
    return { page, context };
  }

  it('lists the recipes under ./recipes with their names and problems', async () => {
    const { page, context } = await open('/recipes');
    await page.getByRole('heading', { name: 'Recipes' }).waitFor();
    await page.getByText('pipeline-report', { exact: true }).waitFor();
    expect(await page.locator('.recipe-card').count()).toBeGreaterThanOrEqual(9);
    await expect(page.locator('.recipe-card', { hasText: 'broken.yaml' }).innerText()).resolves.toContain('problem');
    await page.getByPlaceholder(/Filter/).fill('stage');
    expect(await page.locator('.recipe-card').allInnerTexts()).toEqual([
      expect.stringContaining('deal-stage-snapshot'),
      expect.stringContaining('count-by-stage'),
    ]);
    await page.getByPlaceholder(/Filter/).fill('');
    await page.getByPlaceholder(/Filter/).blur();
    expect(await page.locator('.page-head .muted').innerText()).toBe('11 files under recipes');
    await screenshot(page, 'recipes');
    await context.close();
  });

  it('draws a plan: groups for foreach and paginate, `when` on the edge, `call` as a link', async () => {
    const { page, context } = await open('/recipes/recipes/graph-demo.yaml');
    await page.getByRole('heading', { level: 1, name: 'graph-demo' }).waitFor();
    // foreach and streaming paginate are groups holding their steps.
    const foreach = page.locator('.group-foreach');
    await expect(foreach.locator('.card').first().innerText()).resolves.toContain('notes');
    await expect(foreach.locator('.group-body .card').innerText()).resolves.toContain('notes.create');
    await expect(page.locator('.group-paginate .group-body .card').innerText()).resolves.toContain('log');
    // `when` is drawn on the edge into its step, inside the loop and at the top level.
    const whens = await page.locator('.edge .when').allInnerTexts();
    expect(whens).toEqual(['when ${ $inputs.notify }', 'when ${ $count($big) = 0 }']);
    // The call links to the called recipe's page.
    const link = page.locator('.call-link a');
    expect(await link.innerText()).toBe('recipes/lib/count.yaml');
    // Inputs and outputs.
    await page.locator('.chips code', { hasText: 'min_amount' }).waitFor();
    await page.locator('.chips code', { hasText: 'big_deals' }).waitFor();
    // Selecting a step highlights its line in the source.
    await page.locator('.card', { hasText: 'big' }).first().click();
    const marked = page.locator('.source [aria-current="true"]');
    expect(await marked.getAttribute('data-line')).toBe('17');
    expect(await marked.innerText()).toContain('- id: big');
    await screenshot(page, 'recipe-graph');
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'count' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/recipes/recipes/lib/count.yaml');
    await context.close();
  });

  it('fits a phone width and follows a dark system theme', async () => {
    const { page, context } = await open('/recipes/recipes/graph-demo.yaml', { viewport: PHONE, dark: true });
    await page.getByRole('heading', { level: 1, name: 'graph-demo' }).waitFor();
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    const bg = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(bg).toBe('rgb(17, 19, 23)');
    await screenshot(page, 'recipe-graph-phone-dark');
    await context.close();
  });

  it('shows why a recipe does not compile, with the failing line highlighted', async () => {
    const { page, context } = await open('/recipes/recipes/broken.yaml');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('does not compile');
    const marked = page.locator('.source .mark-error');
    expect(Number(await marked.getAttribute('data-line'))).toBeGreaterThan(0);
    await context.close();
  });

  it('is usable with the keyboard alone', async () => {
    const { page, context } = await open('/runs');
    await page.getByRole('heading', { name: 'Runs' }).waitFor();
    await page.keyboard.press('g');
    await page.keyboard.press('e');
    await page.getByRole('heading', { name: 'Recipes' }).waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    // Sorted by file: broken.yaml, then company-rollup.yaml.
    const focused = String(await page.evaluate("document.activeElement?.textContent ?? ''"));
    expect(focused).toContain('company-rollup');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'company-rollup' }).waitFor();
    await page.keyboard.press('j');
    expect(await page.evaluate("document.activeElement?.getAttribute('data-line')")).not.toBeNull();
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard keys' }).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    await page.getByRole('heading', { name: 'Service' }).waitFor();
    await context.close();
  });

  it('shows the embedded service: connectors per workspace and the context store readiness per entity', async () => {
    const { page, context } = await open('/service');
    const crm = page.getByRole('article', { name: 'Connector CRM demo' });
    await crm.waitFor({ timeout: 20_000 });
    await page.getByRole('region', { name: 'Workspace default' }).waitFor();
    const contacts = crm.getByRole('row', { name: /contacts/ });
    await expect(contacts.innerText()).resolves.toMatch(/contacts\s+\S+\s+(yes|no)\s+1000/);
    await page.getByRole('article', { name: 'Connector Files demo' }).getByText('no context store').waitFor();
    // Once every entity is Ready the page stops refreshing; wait for that before the picture.
    await crm.locator('header .badge', { hasText: 'Ready' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'service', true);
    await context.close();
  });

  it('says there are no runs while the journal does not exist yet', async () => {
    const { page, context } = await open('/');
    await page.getByRole('status').waitFor();
    expect(await page.getByRole('status').innerText()).toContain('no run journal');
    await context.close();
  });

  it('never reads outside its recipe folders, answers only its own host name, and refuses writes', async () => {
    for (const ref of ['../package.json', '/etc/passwd.yaml', 'recipes/../../x.yaml', 'package.json']) {
      const res = await fetch(`${consoleProc.url}/api/recipes/graph?ref=${encodeURIComponent(ref)}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error_code: string }).error_code).toBe('not_found');
    }
    const rebinding = await new Promise<number>((resolve, reject) => {
      const req = request(`${consoleProc.url}/api/info`, { headers: { host: 'attacker.example:80' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(rebinding).toBe(403);
    expect((await fetch(`${consoleProc.url}/api/info`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${consoleProc.url}/nowhere`)).status).toBe(404);
  });
});

describe.skipIf(!haveChromium)('console with a token', () => {
  it('answers 401 without the token; the printed URL sets a cookie and drops the token from the address', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'recipe-console-token-'));
    const token = 'a-long-enough-console-token';
    const proc = await startConsoleProcess(['--port', '0', '--base-url', 'http://127.0.0.1:9'], {
      cwd,
      env: { RECIPE_CONSOLE_TOKEN: token, CONNECTOR_CLIENT_ID: 'x', CONNECTOR_CLIENT_SECRET: 'y' },
    });
    const { browser, close } = await launchBrowser();
    try {
      expect(proc.printed).not.toContain(token);
      expect(proc.stderr()).toContain('token: from RECIPE_CONSOLE_TOKEN');
      expect((await fetch(`${proc.url}/api/info`)).status).toBe(401);
      expect((await fetch(`${proc.url}/api/info`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      const page = await browser.newPage();
      await page.goto(`${proc.url}/recipes?token=${token}`);
      await page.getByRole('heading', { name: 'Recipes' }).waitFor();
      expect(page.url()).toBe(`${proc.url}/recipes`);
      // The service page says the service cannot be reached, and the token is in no page text.
      await page.goto(`${proc.url}/service`);
      await page.getByRole('alert').waitFor({ timeout: 20_000 });
      expect(await page.content()).not.toContain(token);
    } finally {
      await close();
      expect(await proc.stop()).toBe(0);
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
