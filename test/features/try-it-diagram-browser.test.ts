/**
 * The Try it panel's state diagram in a real browser (Debian's chromium through playwright-core):
 * drawn by ELK, readable at the panel's size (labels at 11 px or more, none cut off by the SVG's
 * viewport, start markers inside their states), and zoomable and pannable with the buttons, the
 * keyboard, Ctrl + wheel and a drag. When a round waits on a state outside the visible part, the
 * pane scrolls to it. Screenshots go to .artifacts/; with BATON_UPDATE_SCREENSHOTS=1 the panel of
 * provision-database also replaces docs/images/try-it-diagram.png (docs/try-it.md's picture).
 */
import { expect } from 'chai';
import { copyFileSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createMemoryVault, exampleTools } from '../../machines/index.js';
import { machineGraph } from '../../server/docs-site/index.js';
import { measureDiagram, startMarkers } from '../helpers/diagram-geometry.js';
import { CHROMIUM, CHROMIUM_PATH, requireBinaries } from '../helpers/required-binary.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const SCREENSHOT = '.artifacts/try-it-diagram.png';
const DOCS_SCREENSHOT = 'docs/images/try-it-diagram.png';
type Box = { left: number; right: number; top: number; bottom: number };

const PANE = '.try-it-diagram';
const VIEWPORT = `${PANE} .diagram-viewport`;

/** The scale the diagram is shown at, as the viewer records it. */
const scale = async (page: Page) => Number(await page.getAttribute(PANE, 'data-scale'));

/** The pane's visible box, and the boxes of the whole drawing and of one state, in page pixels. */
function boxes(page: Page, stateId?: string) {
  // No named helpers inside: the test runner's transpiler would wrap them in a `__name` the page lacks.
  return page.$eval(
    VIEWPORT,
    (viewport, id) => {
      const state = id
        ? Array.from(viewport.querySelectorAll('g[id]')).find((g) => new RegExp(`-state-${id}-\\d+$`).test(g.id))
        : undefined;
      return {
        pane: viewport.getBoundingClientRect().toJSON() as Box,
        drawing: viewport.querySelector('svg')!.getBoundingClientRect().toJSON() as Box,
        state: state?.getBoundingClientRect().toJSON() as Box | undefined,
        scroll: { left: viewport.scrollLeft, top: viewport.scrollTop },
      };
    },
    stateId,
  );
}

const within = (inner: Box, outer: Box) =>
  inner.left >= outer.left - 1 &&
  inner.right <= outer.right + 1 &&
  inner.top >= outer.top - 1 &&
  inner.bottom <= outer.bottom + 1;

describe('Try it diagram in a real browser', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const tools = exampleTools({ publicUrl: 'http://127.0.0.1:3000', vault: createMemoryVault() });
  const provision = tools.find((tool) => tool.name === 'provision-database')!;

  before(async function () {
    requireBinaries(this, CHROMIUM);
    server = await startTestServer({ tools });
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    const response = await page.goto(`${server.origin}/docs/tools/provision-database`);
    expect(response?.status()).to.equal(200);
    await page.waitForSelector('#try-it[data-ready="true"]');
    expect(await page.getAttribute(PANE, 'data-rendered')).to.equal('ok');
  });

  afterEach(async () => {
    await page.close();
    expect(problems.splice(0), 'browser errors').to.deep.equal([]);
  });

  it('draws the panel diagram with ELK, every state named, labels readable and none cut off', async () => {
    const drawn = await measureDiagram(page, PANE, startMarkers(provision));
    expect(drawn.layout).to.equal('elk');
    expect(drawn.misplacedStarts).to.deep.equal([]);
    expect(drawn.cutOff).to.deep.equal([]);
    expect(drawn.smallestFontPx).to.be.at.least(11);
    const graph = machineGraph(provision.machine);
    for (const node of graph.nodes.filter((n) => n !== graph.root)) expect(drawn.labels).to.include(node.key);
    // The drawing starts at its top left, where the flow starts.
    const { pane, drawing } = await boxes(page);
    expect(drawing.left).to.be.closeTo(pane.left + 1, 2);
    expect(drawing.top).to.be.closeTo(pane.top + 1, 2);
    mkdirSync('.artifacts', { recursive: true });
    await page.locator('#try-it').screenshot({ path: SCREENSHOT });
    if (process.env.BATON_UPDATE_SCREENSHOTS === '1') {
      mkdirSync('docs/images', { recursive: true });
      copyFileSync(SCREENSHOT, DOCS_SCREENSHOT);
    }
  });

  it('zooms with its buttons, fits the whole diagram, and shows 100 %', async () => {
    const first = await scale(page);
    await page.click(`${PANE} button[data-zoom="in"]`);
    expect(await scale(page)).to.be.closeTo(first * 1.25, 0.01);
    await page.click(`${PANE} button[data-zoom="out"]`);
    expect(await scale(page)).to.be.closeTo(first, 0.01);
    await page.click(`${PANE} button[data-zoom="fit"]`);
    const fitted = await boxes(page);
    expect(within(fitted.drawing, fitted.pane), 'the whole diagram in view').to.equal(true);
    await page.click(`${PANE} button[data-zoom="actual"]`);
    expect(await scale(page)).to.equal(1);
    expect(await page.textContent(`${PANE} .diagram-zoom-level`)).to.equal('100 %');
  });

  it('is reachable from the keyboard: arrows pan, + and - zoom, 0 fits, 1 is 100 %', async () => {
    await page.focus(VIEWPORT);
    const first = await scale(page);
    await page.keyboard.press('+');
    expect(await scale(page)).to.be.closeTo(first * 1.25, 0.01);
    await page.keyboard.press('-');
    expect(await scale(page)).to.be.closeTo(first, 0.01);
    await page.keyboard.press('1');
    expect(await scale(page)).to.equal(1);
    const before = (await boxes(page)).scroll;
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
    // Arrow keys scroll natively, and Chromium animates keyboard scrolling: the offsets arrive
    // over the next frames, later still on a loaded machine, so the test waits for them.
    await page
      .waitForFunction(
        ({ selector, left, top }) => {
          const viewport = document.querySelector(selector)!;
          return viewport.scrollLeft > left && viewport.scrollTop > top;
        },
        { selector: VIEWPORT, left: before.left, top: before.top },
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    const after = (await boxes(page)).scroll;
    expect(after.left).to.be.greaterThan(before.left);
    expect(after.top).to.be.greaterThan(before.top);
    await page.keyboard.press('0');
    const fitted = await boxes(page);
    expect(within(fitted.drawing, fitted.pane)).to.equal(true);
  });

  it('zooms with Ctrl + wheel around the pointer, and pans with a drag', async () => {
    const { pane } = await boxes(page);
    const first = await scale(page);
    await page.mouse.move(pane.left + 100, pane.top + 100);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    await page.waitForFunction(
      (s) => Number(document.querySelector('.try-it-diagram')!.getAttribute('data-scale')) > s,
      first,
    );
    expect(await scale(page)).to.be.closeTo(first * 1.25, 0.01);
    const before = (await boxes(page)).scroll;
    await page.mouse.move(pane.left + 300, pane.top + 300);
    await page.mouse.down();
    await page.mouse.move(pane.left + 150, pane.top + 200, { steps: 5 });
    await page.mouse.up();
    const after = (await boxes(page)).scroll;
    expect(after.left - before.left).to.be.closeTo(150, 2);
    expect(after.top - before.top).to.be.closeTo(100, 2);
  });

  it('scrolls the pane to the state a round waits on', async () => {
    // At 100 % the confirm state is outside the pane's first view.
    await page.click(`${PANE} button[data-zoom="actual"]`);
    await page.$eval(VIEWPORT, (viewport) => viewport.scrollTo(0, 0));
    const hidden = await boxes(page, 's_confirm');
    expect(within(hidden.state!, hidden.pane), 'confirm starts out of view').to.equal(false);
    await page.click('.try-it-arguments button[type="submit"]');
    await page.waitForSelector('.try-it-panel[data-phase="asking"][data-round="1"]');
    await page.selectOption('.try-it-question[data-key="size"] select', { label: 'large' });
    await page.click('.try-it-question[data-key="size"] button[data-action="accept"]');
    await page.selectOption('.try-it-question[data-key="region"] select', { label: 'ap-south' });
    await page.click('.try-it-question[data-key="region"] button[data-action="accept"]');
    // The check rejects the pair and asks the region again.
    await page.waitForSelector('.try-it-panel[data-phase="asking"][data-round="2"]');
    await page.selectOption('.try-it-question[data-key="region"] select', { label: 'eu-west' });
    await page.click('.try-it-question[data-key="region"] button[data-action="accept"]');
    await page.waitForSelector('.try-it-panel[data-phase="asking"][data-round="3"]');
    expect(await page.getAttribute(PANE, 'data-waiting')).to.equal('s_confirm');
    const shown = await boxes(page, 's_confirm');
    expect(within(shown.state!, shown.pane), 'the waiting state in view').to.equal(true);
  });
});
