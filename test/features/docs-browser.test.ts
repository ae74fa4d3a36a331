/**
 * The served docs in a real browser: Debian's chromium driven by playwright-core (which never
 * downloads a browser of its own). Every page of a server with the example tools and all the
 * conformance fixtures is opened; every diagram must become an SVG that Mermaid drew without
 * error and that shows the machine's states, and every state diagram is laid out by ELK (served
 * from the package, no CDN) with its start markers inside their states, above the state they
 * enter, and labels at a readable size that no viewport cuts off. A screenshot of one page is kept
 * as a CI artifact.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  documentedFlows,
  flowSlug,
  machineGraph,
  pagePath,
  type DocumentedFlow,
} from '../../server/docs-site/index.js';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { createMemoryVault, exampleTools } from '../../machines/index.js';
import { measureDiagram, startMarkers } from '../helpers/diagram-geometry.js';
import { CHROMIUM, CHROMIUM_PATH, requireBinaries } from '../helpers/required-binary.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const SCREENSHOT = '.artifacts/docs-screenshot.png';

interface DrawnDiagram {
  kind: string;
  rendered: string | undefined;
  error: string | undefined;
  hasSvg: boolean;
  errorIcon: boolean;
  text: string;
}

/** The names a state diagram must show: every state's key (history states as H or H*). */
function expectedStateLabels(flow: DocumentedFlow): string[] {
  const graph = machineGraph(flow.definition.machine);
  const nodes = graph.nodes.filter((n) => n !== graph.root);
  if (nodes.length === 0) return [graph.id];
  return nodes.map((n) => (n.type === 'history' ? (n.history === 'deep' ? 'H*' : 'H') : n.key));
}

async function open(page: Page, url: string): Promise<DrawnDiagram[]> {
  const response = await page.goto(url);
  expect(response?.status(), url).to.equal(200);
  await page.waitForSelector('html[data-diagrams="done"]', { timeout: 60_000 });
  return page.$$eval('.diagram', (diagrams) =>
    diagrams.map((d) => {
      const element = d as HTMLElement;
      const svg = element.querySelector('svg');
      // The text people see: the SVG without its <style> (whose CSS names error classes too).
      const visible = svg?.cloneNode(true) as SVGElement | undefined;
      visible?.querySelectorAll('style').forEach((style) => style.remove());
      return {
        kind: element.dataset.diagram ?? '',
        rendered: element.dataset.rendered,
        error: element.dataset.error,
        hasSvg: svg !== null,
        errorIcon: svg?.querySelector('.error-icon') !== null && svg !== null,
        text: visible?.textContent ?? '',
      };
    }),
  );
}

describe('served docs in a real browser', function () {
  this.timeout(300_000);
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  /** Every asset request that did not answer 200 (the ELK modules are many files). */
  const failedAssets: string[] = [];
  const fixtures = conformanceFixtures();

  before(async function () {
    requireBinaries(this, CHROMIUM);
    server = await startTestServer({
      tools: [...exampleTools({ publicUrl: 'http://127.0.0.1:3000', vault: createMemoryVault() }), ...fixtures.tools],
      prompts: fixtures.prompts,
      resources: fixtures.resources,
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      // playwright gives each launch a fresh, temporary profile (--user-data-dir) of its own.
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.url().includes('/assets/') && response.status() !== 200) failedAssets.push(response.url());
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  afterEach(() => {
    const found = problems.splice(0);
    expect(found, 'browser errors').to.deep.equal([]);
    expect(failedAssets.splice(0), 'assets not served').to.deep.equal([]);
  });

  it('lists every example and conformance tool, prompt and resource on /docs', async () => {
    const diagrams = await open(page, `${server.origin}/docs`);
    expect(diagrams).to.deep.equal([]);
    const links = await page.$$eval('main a', (anchors) => anchors.map((a) => a.getAttribute('href')));
    const flows = documentedFlows({ ...fixtures, tools: server.baton.registry.list() });
    expect(links).to.have.members(flows.map((flow) => pagePath({ kind: flow.kind, slug: flowSlug(flow) }, '/docs')));
  });

  it('draws the diagrams of every page without a Mermaid error, state diagrams laid out by ELK', async () => {
    const flows = documentedFlows({ ...fixtures, tools: server.baton.registry.list() });
    expect(flows.length).to.be.at.least(30);
    const elkModules: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/assets/layout-elk/') && response.status() === 200) elkModules.push(response.url());
    });
    for (const flow of flows) {
      const url = `${server.origin}${pagePath({ kind: flow.kind, slug: flowSlug(flow) }, '/docs')}`;
      const diagrams = await open(page, url);
      // One sequence diagram for the main run, and one for each further example run.
      const runs = 1 + (flow.kind === 'tool' ? (flow.definition.examples?.length ?? 0) : 0);
      expect(
        diagrams.map((d) => d.kind),
        url,
      ).to.deep.equal(['state', ...Array<string>(runs).fill('sequence')]);
      for (const diagram of diagrams) {
        expect(diagram.error, `${url} ${diagram.kind}`).to.equal(undefined);
        expect(diagram.rendered, `${url} ${diagram.kind}`).to.equal('ok');
        expect(diagram.hasSvg, `${url} ${diagram.kind}`).to.equal(true);
        expect(diagram.errorIcon, `${url} ${diagram.kind}`).to.equal(false);
        expect(diagram.text, `${url} ${diagram.kind}`).not.to.include('Syntax error');
      }
      for (const label of expectedStateLabels(flow)) {
        expect(diagrams[0]!.text, `${url}: state "${label}"`).to.include(label);
      }
      expect(diagrams[1]!.text, url).to.include('Baton').and.include('round 1');
      // ELK: start markers inside their states and above what they enter; labels readable, none cut off.
      const drawn = await measureDiagram(page, '.diagram[data-diagram="state"]', startMarkers(flow.definition));
      expect(drawn.layout, url).to.equal('elk');
      expect(drawn.misplacedStarts, url).to.deep.equal([]);
      expect(drawn.cutOff, url).to.deep.equal([]);
      expect(drawn.smallestFontPx, url).to.be.at.least(11);
      for (const label of expectedStateLabels(flow)) expect(drawn.labels, `${url}: ${label}`).to.include(label);
    }
    expect(elkModules.some((url) => url.endsWith('/mermaid-layout-elk.esm.min.mjs'))).to.equal(true);
  });

  it('shows input states styled apart, and saves a screenshot of the release page', async () => {
    await open(page, `${server.origin}/docs/tools/release`);
    const inputNodes = await page.$$eval('.diagram[data-diagram="state"] svg g.input', (nodes) => nodes.length);
    // window, changelog (a breaking release's, version 2) and confirm.
    expect(inputNodes).to.equal(3);
    mkdirSync('.artifacts', { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(existsSync(SCREENSHOT)).to.equal(true);
  });
});
