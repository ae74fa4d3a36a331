/**
 * The diagram editor in a real browser (Chromium): on the scaffold tool's page under `baton dev`,
 * the author adds a state through the panel's form; the file gets it, and after the page reloads
 * the diagram and the state list show it. A screenshot of the editor is kept for docs/drawing.md.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { startDevProject, type DevProject } from '../helpers/dev-project.js';
import { CHROMIUM, CHROMIUM_PATH, requireBinaries } from '../helpers/required-binary.js';

const SCREENSHOT = 'docs/images/editor.png';

describe('the diagram editor in Chromium', function () {
  this.timeout(180_000);
  let project: DevProject;
  let browser: Browser;

  before(async function () {
    requireBinaries(this, CHROMIUM);
    project = await startDevProject();
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  });

  after(async () => {
    await browser?.close();
    project?.stop();
  });

  it('adds a state through the page and shows it in the diagram', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${project.port}/docs/tools/greet`);
    await page.waitForSelector('.editor-panel[data-phase="ready"]', { timeout: 30_000 });
    expect(
      await page.$$eval('.editor-states tr[data-state]', (rows) => rows.map((r) => r.getAttribute('data-state'))),
    ).to.deep.equal(['askName', 'done', 'declined']);

    await page.click('.editor-block summary:text("Add a state")');
    await page.fill('.editor-block[open] input[name="name"]', 'review');
    await Promise.all([page.waitForEvent('load'), page.click('.editor-block[open] button[type="submit"]')]);

    await page.waitForSelector('.editor-panel[data-phase="ready"]', { timeout: 30_000 });
    await page.waitForSelector('html[data-diagrams="done"]', { timeout: 60_000 });
    expect(readFileSync(project.file, 'utf8')).to.match(/\n {4}review: \{\}/);
    const drawn = await page.$eval('.try-it-diagram svg', (svg) => svg.textContent ?? '');
    expect(drawn).to.include('review');
    expect(await page.textContent('.editor-status')).to.include('Saved to greet.ts');
    expect(await page.$('.editor-states tr[data-state="review"]')).to.not.equal(null);
    expect(errors).to.deep.equal([]);

    // Open the question form for the screenshot: the part an author uses most.
    await page.click('.editor-block summary:text("Add a question")');
    const editor = await page.$('#editor');
    await editor!.screenshot({ path: SCREENSHOT });
  });
});
