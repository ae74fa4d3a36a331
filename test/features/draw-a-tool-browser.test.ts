/**
 * Issue 39, item 6, as an author does it, in Chromium: the packed package installed, a project made
 * with `baton new --project`, `npm run dev` (`baton dev`) in it, and on its tool's page the editor
 * draws the tool anew: a form question, an invoked step and two finals. Try it on the same page then
 * runs what was drawn, and `npm test` in the project walks every path of it with the test kit
 * (the scaffold's test calls describePaths). Screenshots go to .artifacts/ (kept by CI), and the
 * drawn tool's to docs/images/drawn-tool.png for docs/drawing.md.
 *
 * What the author writes as code, not on the page: the actor the invoked step names (an actor is
 * code), the version record of the changed tool (`npx baton versions --restart hello`), and the
 * scaffold's example test brought to the new question.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../helpers/spawn-baton.js';
import { CHROMIUM, CHROMIUM_PATH, requireBinaries } from '../helpers/required-binary.js';
import { listening, startScript, stopGroup, type RunningNpm } from '../package/npm-process.js';
import { npm, packedProject } from '../package/packed-install.js';

const ARTIFACTS = '.artifacts';
const DOCS_SCREENSHOT = 'docs/images/drawn-tool.png';

/**
 * The author's code: the actor the drawn step will invoke, declared in the scaffold's setup, and
 * listed as safe (it has no effect outside the process), so the page's example may run it.
 */
function withForecastActor(source: string): string {
  const next = source
    .replace("import { assign } from 'xstate';", "import { assign, fromPromise } from 'xstate';")
    .replace(
      "  inputSchema: { type: 'object', additionalProperties: false },\n",
      "  inputSchema: { type: 'object', additionalProperties: false },\n  actors: { forecast: fromPromise(async () => 'Sunny, 21 °C') },\n",
    )
    .replace('  machine,\n});', "  safeActors: ['forecast'],\n  machine,\n});");
  if (!next.includes('fromPromise }') || !next.includes('actors: {') || !next.includes('safeActors')) {
    throw new Error('the scaffold tool changed: update withForecastActor');
  }
  return next;
}

/**
 * The scaffold's test, brought to the drawn tool: describePaths told what the invoked actor may
 * come to (finished, failed), so the failure path is walked too, and the example test answering
 * the new question.
 */
function withCityExample(source: string): string {
  const start = source.indexOf("describe('hello'");
  const next = source
    .replace(
      "import { accept, describePaths, runFlow } from 'baton-mcp/testing';",
      "import { accept, describePaths, done, fail, runFlow } from 'baton-mcp/testing';",
    )
    .replace(
      'describePaths(helloTool);',
      "describePaths(helloTool, { outcomes: { forecast: [done('Sunny'), fail(new Error('no forecast'))] } });",
    );
  if (start < 0 || !next.includes('fail(new Error') || !next.includes('done, fail'))
    throw new Error('the scaffold test changed: update withCityExample');
  return `${next.slice(0, next.indexOf("describe('hello'"))}describe('hello', () => {
  it('reaches the forecast for the city the user gives', async () => {
    const run = await runFlow(helloTool, {}, { city: accept({ city: 'Paris' }) });
    assert.equal(run.outcome, 'complete');
  });
});
`;
}

/** Sends one edit from the panel: the page reloads when it is saved, or the panel says why not. */
async function saved(page: Page, act: () => Promise<void>): Promise<void> {
  const loaded = page.waitForEvent('load', { timeout: 30_000 }).then(() => 'saved');
  const refused = page
    .waitForSelector('.editor-status[data-kind="error"]', { timeout: 30_000 })
    .then(async (status) => `refused: ${await status.textContent()}`);
  loaded.catch(() => {});
  refused.catch(() => {});
  await act();
  const outcome = await Promise.race([loaded, refused]);
  if (outcome !== 'saved') throw new Error(outcome);
  await page
    .waitForSelector('.editor-panel[data-phase="ready"], .editor-panel[data-phase="unavailable"]', {
      timeout: 30_000,
    })
    .catch(async (error: Error) => {
      const body = (await page.textContent('body').catch(() => '')) ?? '';
      throw new Error(`${error.message}\npage: ${page.url()}\n${body.slice(0, 2000)}`);
    });
  if ((await page.getAttribute('.editor-panel', 'data-phase')) !== 'ready') {
    throw new Error(`after the edit: ${await page.textContent('.editor-panel')}`);
  }
}

async function openBlock(page: Page, title: string) {
  await page.click(`.editor-block summary:text-is("${title}")`);
  return page.locator('.editor-block[open] form');
}

const states = (page: Page) =>
  page.$$eval('.editor-states tr[data-state]', (rows) => rows.map((r) => r.getAttribute('data-state')));

describe('drawing a tool in baton dev, from the packed package, then running and testing it', function () {
  this.timeout(900_000);
  let project = '';
  let file = '';
  let dev: RunningNpm | undefined;
  let browser: Browser;
  let page: Page;
  let origin = '';
  const errors: string[] = [];

  before(async function () {
    requireBinaries(this, CHROMIUM);
    project = await packedProject('drawn-tools');
    file = join(project, 'tools', 'hello.ts');
    writeFileSync(file, withForecastActor(readFileSync(file, 'utf8')));
    const port = await freePort();
    dev = startScript(project, 'dev', port);
    await listening(dev, 'npm run dev');
    origin = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      console.log(`browser errors: ${JSON.stringify(errors)}\nbaton dev said:\n${dev?.output().slice(-4000)}`);
    }
  });

  after(async () => {
    await browser?.close();
    await stopGroup(dev?.child);
  });

  it('draws a form question, an invoked step and two finals on the tool page', async () => {
    await page.goto(`${origin}/docs/tools/hello`);
    // The installed package's editor: its parser is the bundled one, not a package of the project.
    await page.waitForSelector('.editor-panel[data-phase="ready"]', { timeout: 60_000 });
    expect(await states(page)).to.deep.equal(['askName', 'done', 'declined']);

    // The second final, the one the forecast ends in.
    await saved(page, async () => {
      const form = await openBlock(page, 'Add a state');
      await form.locator('input[name="name"]').fill('reported');
      await form.locator('button[type="submit"]').click();
    });
    await saved(page, () => page.click('tr[data-state="reported"] button:text-is("Mark final")'));

    // The invoked step: the page offers the actors the setup implements.
    const form = await openBlock(page, 'Add an invoked step');
    expect(
      await page.$$eval('#editor-actors option', (options) => options.map((o) => o.getAttribute('value'))),
    ).to.deep.equal(['forecast']);
    await saved(page, async () => {
      await form.locator('input[name="name"]').fill('forecasting');
      await form.locator('input[name="src"]').fill('forecast');
      await form.locator('select[name="done"]').selectOption('reported');
      await form.locator('select[name="error"]').selectOption('declined');
      await form.locator('button[type="submit"]').click();
    });

    // The form question, its answers wired: accept to the step, decline and cancel to the end.
    await saved(page, async () => {
      const question = await openBlock(page, 'Add a question');
      await question.locator('input[name="name"]').fill('askCity');
      await question.locator('input[name="key"]').fill('city');
      await question.locator('input[name="message"]').fill('Which city?');
      await question.locator('input[name="field-name"]').fill('city');
      await question.locator('input[name="field-title"]').fill('City');
      await question.locator('select[name="accept"]').selectOption('forecasting');
      await question.locator('select[name="decline"]').selectOption('declined');
      await question.locator('select[name="cancel"]').selectOption('declined');
      await question.locator('button[type="submit"]').click();
    });

    // It starts at the question; the scaffold's question and greeting go.
    await saved(page, () => page.click('tr[data-state="askCity"] button:text-is("Make initial")'));
    await saved(page, () => page.click('tr[data-state="askName"] button:text-is("Delete")'));
    await saved(page, () => page.click('tr[data-state="done"] button:text-is("Delete")'));

    expect(await states(page)).to.have.members(['askCity', 'forecasting', 'reported', 'declined']);
    const text = readFileSync(file, 'utf8');
    expect(text).to.include("initial: 'askCity'");
    expect(text).to.match(
      /forecasting: \{\n\s+invoke: \{\n\s+src: 'forecast',\n\s+onDone: 'reported',\n\s+onError: 'declined'/,
    );
    expect(text).to.include("meta: { 'baton.input': { key: 'city' } },");
    expect(text).to.match(/reported: \{\n?\s*type: 'final'/);
    await page.locator('#editor').screenshot({ path: join(ARTIFACTS, 'drawn-tool-editor.png') });
    copyFileSync(file, join(ARTIFACTS, 'drawn-tool-hello.ts'));
    expect(errors).to.deep.equal([]);
  });

  it('runs the drawn tool in Try it on the same page', async () => {
    await page.goto(`${origin}/docs/tools/hello`);
    await page.waitForSelector('#try-it[data-ready="true"]', { timeout: 60_000 });
    await page.waitForSelector('html[data-diagrams="done"]', { timeout: 60_000 });
    const drawn = await page.$eval('.try-it-diagram svg', (svg) => svg.textContent ?? '');
    for (const state of ['askCity', 'forecasting', 'reported', 'declined']) expect(drawn).to.include(state);

    await page.click('.try-it-arguments button[type="submit"]');
    await page.waitForSelector('.try-it-question[data-key="city"]', { timeout: 30_000 });
    expect(await page.textContent('.try-it-question[data-key="city"] .try-it-message-text')).to.equal('Which city?');
    await page.fill('.try-it-question[data-key="city"] input[type="text"]', 'Paris');
    // For docs/drawing.md: the drawn tool, asking its drawn question.
    await page.locator('#try-it').screenshot({ path: DOCS_SCREENSHOT });
    await page.click('.try-it-question[data-key="city"] button[data-action="accept"]');
    await page.waitForSelector('.try-it-panel[data-phase="result"]', { timeout: 30_000 });
    // The forecast's final has no output (an output is code): the result is the empty success.
    expect(await page.getAttribute('.try-it-result', 'data-outcome')).to.equal('ok');
    expect(await page.$$('.try-it-result pre.try-it-text')).to.have.length(0);
    await page.locator('#try-it').screenshot({ path: join(ARTIFACTS, 'drawn-tool-try-it.png') });

    // Again, declining: the drawn decline transition ends in the scaffold's final and its output.
    await page.click('.try-it-result button:text-is("Restart")');
    await page.click('.try-it-arguments button[type="submit"]');
    await page.click('.try-it-question[data-key="city"] button[data-action="decline"]');
    await page.waitForSelector('.try-it-panel[data-phase="result"]', { timeout: 30_000 });
    expect(await page.textContent('.try-it-result pre.try-it-text')).to.equal('Maybe next time.');
    await page.locator('#try-it').screenshot({ path: join(ARTIFACTS, 'drawn-tool-try-it-declined.png') });
    expect(errors).to.deep.equal([]);
  });

  it('npm test in the project walks every path of the drawn tool', async () => {
    // The drawn machine is a new structure: recorded as a restart (no flow of it is in flight).
    const recorded = await npm(['exec', '--no', '--', 'baton', 'versions', '--restart', 'hello'], project);
    expect(recorded.stdout + recorded.stderr).to.include('hello');
    const test = join(project, 'test', 'hello.test.ts');
    writeFileSync(test, withCityExample(readFileSync(test, 'utf8')));
    const { stdout } = await npm(['test'], project).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`npm test failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    expect(stdout).to.include('hello: every path of the machine').and.include('passing');
    expect(stdout).to.not.include('failing');
    // Every answer to the question, and both ends of the invoked step, are a path of their own.
    const paths = stdout.split('\n').filter((line) => /ends in "/.test(line));
    expect(paths.join('\n'))
      .to.match(/forecast.*ends in "reported"/)
      .and.match(/forecast.*ends in "declined"/);
    expect(paths.join('\n')).to.match(/city: decline.*ends in "declined"/);
  });
});
