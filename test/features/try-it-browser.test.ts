/**
 * The tool pages' "Try it" panel in a real browser (Debian's chromium through playwright-core):
 * a reader walks release, provision-database (with a pair the check rejects), a decline, a URL
 * question, a streamed round and ship-release as a task (approved to the end, and cancelled
 * mid-build), clicking what a person clicks. At each step the test checks
 * which states the diagram highlights, and it checks what went over the wire: the 2026-07-28
 * headers and `_meta`, a new id each round, and `requestState` echoed exactly. Screenshots go to
 * .artifacts/; with BATON_UPDATE_SCREENSHOTS=1 the mid-flow one also replaces docs/images/try-it.png
 * (the README's picture).
 */
import { expect } from 'chai';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { createMemoryVault, exampleTools, vaultPageRouter } from '../../machines/index.js';
import { TASKS_EXTENSION } from '../../server/engine/index.js';
import { pageVisitor, staticBearerTokens } from '../../server/http/index.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { numberTask } from '../helpers/number-task.js';
import { CHROMIUM, CHROMIUM_PATH, requireBinaries } from '../helpers/required-binary.js';
import { startTestServer, testKeyRing, type RunningServer } from '../helpers/test-server.js';

const MID_FLOW_SCREENSHOT = '.artifacts/try-it-release.png';
const README_SCREENSHOT = 'docs/images/try-it.png';
const TASK_POLL_MS = 250;

interface WireCall {
  headers: Record<string, string>;
  body: any;
}

/** Opens a tool page and waits until the panel has drawn its diagram and its argument form. */
async function openTool(page: Page, origin: string, tool: string): Promise<void> {
  const response = await page.goto(`${origin}/docs/tools/${tool}`);
  expect(response?.status()).to.equal(200);
  await page.waitForSelector('#try-it[data-ready="true"]');
  expect(await page.getAttribute('.try-it-diagram', 'data-rendered')).to.equal('ok');
}

/** Waits for the panel to reach a phase (at a round) and answers which states are highlighted. */
async function reach(page: Page, phase: string, round?: number): Promise<string[]> {
  const at = round === undefined ? '' : `[data-round="${round}"]`;
  await page.waitForSelector(`.try-it-panel[data-phase="${phase}"]${at}`);
  const waiting = (await page.getAttribute('.try-it-diagram', 'data-waiting')) ?? '';
  // The attribute names what the script meant to mark; the SVG shows what it did mark.
  const marked = await page.$$eval('.try-it-diagram svg g.try-it-waiting', (groups) => groups.map((g) => g.id));
  const ids = waiting ? waiting.split(' ') : [];
  expect(marked).to.have.length(ids.length);
  for (const id of ids) expect(marked.some((m) => new RegExp(`-state-${id}-\\d+$`).test(m))).to.equal(true);
  return ids;
}

const questionKeys = (page: Page) =>
  page.$$eval('.try-it-question:not([data-answered])', (cards) => cards.map((c) => (c as HTMLElement).dataset.key));

async function choose(page: Page, key: string, label: string): Promise<void> {
  await page.selectOption(`.try-it-question[data-key="${key}"] select`, { label });
  await page.click(`.try-it-question[data-key="${key}"] button[data-action="accept"]`);
}

async function confirm(page: Page, key: string): Promise<void> {
  await page.check(`.try-it-question[data-key="${key}"] input[type="checkbox"]`);
  await page.click(`.try-it-question[data-key="${key}"] button[data-action="accept"]`);
}

async function result(page: Page): Promise<{ outcome: string; text: string; structured: any }> {
  await reach(page, 'result');
  return page.$eval('.try-it-result', (box) => {
    const structured = box.querySelector('.try-it-structured');
    return {
      outcome: (box as HTMLElement).dataset.outcome ?? '',
      text: Array.from(box.querySelectorAll('pre.try-it-text'))
        .map((p) => p.textContent)
        .join('\n'),
      structured: structured ? JSON.parse(structured.textContent!) : undefined,
    };
  });
}

describe('Try it panel in a real browser', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let calls: WireCall[];
  const problems: string[] = [];

  before(async function () {
    requireBinaries(this, CHROMIUM);
    const fixtures = conformanceFixtures();
    // The example tools read the vault page's address at each flow start, once the port is known.
    const examples = { publicUrl: 'http://127.0.0.1:0', vault: createMemoryVault() };
    const keyRing = testKeyRing();
    server = await startTestServer({
      keyRing,
      // Shorter than the default second, so the task walks take a few seconds, not ten.
      tasks: { pollIntervalMs: TASK_POLL_MS },
      tools: [...exampleTools(examples), ...fixtures.tools, numberTask],
      routers: [vaultPageRouter(examples.vault, { keyRing, identify: pageVisitor() })],
    });
    examples.publicUrl = server.origin;
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
    calls = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // Chromium logs every 4xx fetch; the refused call behind an auth hook is one on purpose.
      if (message.type() === 'error' && !/status of 401/.test(message.text())) {
        problems.push(`console: ${message.text()}`);
      }
    });
    page.on('request', (request: Request) => {
      if (request.method() === 'POST') calls.push({ headers: request.headers(), body: request.postDataJSON() });
    });
  });

  afterEach(async () => {
    await page.close();
    expect(problems.splice(0), 'browser errors').to.deep.equal([]);
  });

  it('walks release answering every question, and shows each round on the wire', async () => {
    await openTool(page, server.origin, 'release');
    expect(await page.inputValue('.try-it-arguments input[name="service"]')).to.equal('billing');
    expect(await page.inputValue('.try-it-arguments input[name="version"]')).to.equal('2.4.0');
    expect(await reach(page, 'arguments')).to.deep.equal([]);
    await page.click('.try-it-arguments button[type="submit"]');

    expect(await reach(page, 'asking', 1)).to.deep.equal(['s_pickWindow']);
    expect(await questionKeys(page)).to.deep.equal(['window']);
    // The enum is a select; the question's message is shown as the server sent it.
    expect(await page.textContent('.try-it-question[data-key="window"] .try-it-message-text')).to.equal(
      'When should billing 2.4.0 go out?',
    );
    await choose(page, 'window', 'tonight');

    expect(await reach(page, 'asking', 2)).to.deep.equal(['s_confirm']);
    expect(await questionKeys(page)).to.deep.equal(['confirm']);
    mkdirSync('.artifacts', { recursive: true });
    await page.locator('#try-it').screenshot({ path: MID_FLOW_SCREENSHOT });
    if (process.env.BATON_UPDATE_SCREENSHOTS === '1') {
      mkdirSync('docs/images', { recursive: true });
      copyFileSync(MID_FLOW_SCREENSHOT, README_SCREENSHOT);
    }
    await confirm(page, 'confirm');

    const end = await result(page);
    expect(end.outcome).to.equal('ok');
    expect(end.structured).to.include({ released: true, service: 'billing', window: 'tonight' });
    expect(await reach(page, 'result')).to.deep.equal([]);

    // The wire: three rounds, each conformant, each with a new id, the sealed state echoed as sent.
    expect(calls).to.have.length(3);
    for (const call of calls) {
      expect(call.headers).to.include({
        'mcp-protocol-version': PROTOCOL_VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': 'release',
      });
      expect(call.headers).not.to.have.property('authorization');
      expect(call.body.params._meta).to.include({ 'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION });
      expect(call.body.params._meta['io.modelcontextprotocol/clientCapabilities']).to.have.property('elicitation');
      // The form's checkbox for release's optional `breaking` says false when left unticked.
      expect(call.body.params.arguments).to.deep.equal({ service: 'billing', version: '2.4.0', breaking: false });
    }
    expect(new Set(calls.map((c) => c.body.id)).size).to.equal(3);
    const responses = await page.$$eval('.try-it-wire details[data-direction="in"] code', (codes) =>
      codes.map((c) => JSON.parse(c.textContent!)),
    );
    expect(responses).to.have.length(3);
    expect(calls[1]!.body.params.requestState).to.equal(responses[0].result.requestState);
    expect(calls[2]!.body.params.requestState).to.equal(responses[1].result.requestState);
    expect(calls[1]!.body.params.inputResponses).to.deep.equal({
      window: { action: 'accept', content: { window: 'tonight' } },
    });
    expect(await page.$$eval('.try-it-wire details', (d) => d.length)).to.equal(6);
    expect(existsSync(MID_FLOW_SCREENSHOT)).to.equal(true);
  });

  it('asks only the region again when provision-database rejects the pair', async () => {
    await openTool(page, server.origin, 'provision-database');
    await page.click('.try-it-arguments button[type="submit"]');
    expect(await reach(page, 'asking', 1)).to.deep.equal(['s_collect_region_asking', 's_collect_size_asking']);
    expect(await questionKeys(page)).to.have.members(['size', 'region']);
    await choose(page, 'size', 'large');
    // One answer of two: the round waits for the other before it is sent.
    expect(await page.getAttribute('.try-it-panel', 'data-phase')).to.equal('asking');
    await choose(page, 'region', 'ap-south');

    expect(await reach(page, 'asking', 2)).to.deep.equal(['s_collect_region_asking']);
    expect(await questionKeys(page)).to.deep.equal(['region']);
    expect(await page.textContent('.try-it-question[data-key="region"] .try-it-message-text')).to.include(
      'not offered in ap-south',
    );
    await choose(page, 'region', 'eu-west');

    expect(await reach(page, 'asking', 3)).to.deep.equal(['s_confirm']);
    await confirm(page, 'confirm');
    const end = await result(page);
    expect(end.outcome).to.equal('ok');
    expect(end.structured).to.include({ project: 'atlas', size: 'large', region: 'eu-west' });
    await page.screenshot({ path: '.artifacts/try-it-provision-database.png', fullPage: true });
  });

  it('sends a decline of one of two parallel questions at once, without waiting for the other', async () => {
    await openTool(page, server.origin, 'provision-database');
    await page.click('.try-it-arguments button[type="submit"]');
    expect(await reach(page, 'asking', 1)).to.deep.equal(['s_collect_region_asking', 's_collect_size_asking']);
    await page.click('.try-it-question[data-key="size"] button[data-action="decline"]');
    const end = await result(page);
    expect(end.text).to.include('cancelled: nothing was created');
    expect(calls[1]!.body.params.inputResponses).to.deep.equal({ size: { action: 'decline' } });
  });

  it('ends release cleanly on a decline, and Restart starts over with the arguments', async () => {
    await openTool(page, server.origin, 'release');
    await page.fill('.try-it-arguments input[name="service"]', 'search');
    await page.click('.try-it-arguments button[type="submit"]');
    expect(await reach(page, 'asking', 1)).to.deep.equal(['s_pickWindow']);
    await page.click('.try-it-question[data-key="window"] button[data-action="decline"]');
    const end = await result(page);
    expect(end.outcome).to.equal('ok');
    expect(end.text).to.include('nothing was deployed');
    expect(calls[1]!.body.params.inputResponses).to.deep.equal({ window: { action: 'decline' } });
    await page.screenshot({ path: '.artifacts/try-it-decline.png', fullPage: true });

    await page.click('.try-it-result button');
    expect(await reach(page, 'arguments')).to.deep.equal([]);
    expect(await page.inputValue('.try-it-arguments input[name="service"]')).to.equal('search');
    expect(await page.$$eval('.try-it-wire details', (d) => d.length)).to.equal(0);
  });

  it("builds question forms that honour the schema's limits (collect-feedback)", async () => {
    await openTool(page, server.origin, 'collect-feedback');
    await page.click('.try-it-arguments button[type="submit"]');
    await reach(page, 'asking', 1);
    const rating = '.try-it-question[data-key="rating"] input[name="rating"]';
    expect(await page.getAttribute(rating, 'type')).to.equal('number');
    expect(await page.getAttribute(rating, 'min')).to.equal('1');
    expect(await page.getAttribute(rating, 'max')).to.equal('5');
    expect(await page.getAttribute(rating, 'step')).to.equal('1');
    expect(await page.getAttribute('.try-it-question[data-key="rating"] input[name="comment"]', 'maxlength')).to.equal(
      '500',
    );
    // Out of range: the browser refuses the form, nothing is sent.
    await page.fill(rating, '9');
    await page.click('.try-it-question[data-key="rating"] button[data-action="accept"]');
    expect(await page.getAttribute('.try-it-question[data-key="rating"]', 'data-answered')).to.equal(null);
    expect(calls).to.have.length(1);
    await page.fill(rating, '2');
    await page.click('.try-it-question[data-key="rating"] button[data-action="accept"]');
    await reach(page, 'asking', 2);
    expect(await questionKeys(page)).to.deep.equal(['details']);
    expect(
      await page.getAttribute('.try-it-question[data-key="details"] input[name="whatWentWrong"]', 'minlength'),
    ).to.equal('1');
    await page.fill('.try-it-question[data-key="details"] input[name="whatWentWrong"]', 'It was late.');
    await confirm(page, 'details');
    expect((await result(page)).outcome).to.equal('ok');
    expect(calls[1]!.body.params.inputResponses).to.deep.equal({
      rating: { action: 'accept', content: { rating: 2 } },
    });
    expect(calls[2]!.body.params.inputResponses.details.content).to.deep.equal({
      whatWentWrong: 'It was late.',
      contactMe: true,
    });
  });

  it('shows a URL question as a link, and continues on "I\'m done"', async () => {
    await openTool(page, server.origin, 'connect-payments');
    await page.click('.try-it-arguments button[type="submit"]');
    expect(await reach(page, 'asking', 1)).to.deep.equal(['s_linkAccount']);
    const link = page.locator('.try-it-question[data-key="link"] a.try-it-link');
    const href = (await link.getAttribute('href'))!;
    expect(href).to.match(new RegExp(`^${server.origin}/vault/`));
    expect(await link.getAttribute('target')).to.equal('_blank');
    // The reader opens the link in a new tab. Opened directly rather than by waiting for the
    // click's popup event, which Chromium sometimes never reported under a loaded full run.
    const vault = await browser.newPage();
    await vault.goto(href);
    await vault.fill('input[name="secret"]', 'sk_test_4242424242');
    await vault.click('button');
    // Only once the vault page says so is the key stored; "I'm done" before that would be asked again.
    await vault.waitForSelector('text=Stored.');
    await vault.close();
    await page.click('.try-it-question[data-key="link"] button[data-action="accept"]');
    const end = await result(page);
    expect(end.outcome).to.equal('ok');
    expect(end.text).to.include('4242');
  });

  it('shows the progress notifications of a streamed round', async () => {
    await openTool(page, server.origin, 'test_tool_with_progress');
    await page.click('.try-it-arguments button[type="submit"]');
    const end = await result(page);
    expect(end.text).to.equal('Progress test completed.');
    const progress = await page.$$eval('.try-it-progress-log li', (items) => items.map((i) => i.textContent));
    expect(progress).to.deep.equal(['Starting (0/100)', 'Halfway (50/100)', 'Done (100/100)']);
    expect(await page.isVisible('.try-it-progress')).to.equal(true);
    expect(calls[0]!.body.params._meta).to.have.property('progressToken');
  });

  it("sends a parameter's Mcp-Param header, base64-encoded when it is not plain ASCII", async () => {
    await openTool(page, server.origin, 'test_x_mcp_header');
    await page.fill('.try-it-arguments input[name="region"]', 'Zürich');
    await page.click('.try-it-arguments button[type="submit"]');
    expect((await result(page)).outcome).to.equal('ok');
    expect(calls[0]!.headers['mcp-param-region']).to.equal(`=?base64?${Buffer.from('Zürich').toString('base64')}?=`);
  });

  it('renders a failed tool as isError', async () => {
    await openTool(page, server.origin, 'test_error_handling');
    await page.click('.try-it-arguments button[type="submit"]');
    expect((await result(page)).outcome).to.equal('tool-error');
  });

  describe('a task tool', () => {
    /** The distinct statuses the task card listed, in order, and its last status. */
    const statusesSeen = async () =>
      page.$$eval('.try-it-task-log li', (items) =>
        items.map((i) => (i as HTMLElement).dataset.status!).filter((s, n, all) => s !== all[n - 1]),
      );
    const taskCalls = () => calls.filter((c) => String(c.body.method).startsWith('tasks/'));

    /** Every tasks/* request went out as the extension says, and the wire log lists each exchange. */
    async function expectTaskWire(taskId: string): Promise<void> {
      for (const call of taskCalls()) {
        expect(call.headers).to.include({ 'mcp-method': call.body.method, 'mcp-name': taskId });
        expect(call.body.params.taskId).to.equal(taskId);
        expect(call.body.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions).to.have.property(
          TASKS_EXTENSION,
        );
        expect(call.body.params._meta).not.to.have.property('progressToken');
        expect(call.headers).not.to.have.property('authorization');
      }
      const logged = await page.$$eval('.try-it-wire details[data-direction="out"] code', (codes) =>
        codes.map((c) => JSON.parse(c.textContent!)),
      );
      const loggedTasks = logged.filter((m) => String(m.method).startsWith('tasks/'));
      expect(loggedTasks.map((m) => m.id)).to.deep.equal(taskCalls().map((c) => c.body.id));
      const answers = await page.$$eval('.try-it-wire details[data-direction="in"]', (d) => d.length);
      expect(answers).to.equal(calls.length);
    }

    it('walks ship-release as a task: build, approval, bake, the completed result', async () => {
      await openTool(page, server.origin, 'ship-release');
      expect(await page.inputValue('.try-it-arguments input[name="bakeSeconds"]')).to.equal('1');
      await page.click('.try-it-arguments button[type="submit"]');

      await page.waitForSelector('.try-it-task');
      const taskId = (await page.getAttribute('.try-it-task', 'data-task-id'))!;
      expect(taskId).to.match(/^[\w-]{16,}$/);
      expect(await page.textContent('.try-it-task-id')).to.equal(taskId);
      expect(await page.textContent('.try-it-task-interval')).to.include(String(TASK_POLL_MS));
      expect(calls[0]!.body.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions).to.deep.equal({
        [TASKS_EXTENSION]: {},
      });

      // The approval arrives inside the task: its question form, its state highlighted.
      expect(await reach(page, 'asking')).to.deep.equal(['s_awaitingApproval']);
      expect(await page.getAttribute('.try-it-panel', 'data-task-status')).to.equal('input_required');
      expect(await questionKeys(page)).to.deep.equal(['approve']);
      expect(await page.textContent('.try-it-question[data-key="approve"] .try-it-message-text')).to.include(
        'billing-2.5.0.tar.gz is built',
      );
      await page.screenshot({ path: '.artifacts/try-it-ship-release-approval.png', fullPage: true });
      await page.fill('.try-it-question[data-key="approve"] input[name="approver"]', 'ada');
      await confirm(page, 'approve');

      const end = await result(page);
      expect(end.outcome).to.equal('ok');
      expect(end.structured).to.include({ shipped: true, service: 'billing', version: '2.5.0', approvedBy: 'ada' });
      expect(await reach(page, 'result')).to.deep.equal([]);
      expect(await page.getAttribute('.try-it-panel', 'data-task-status')).to.equal('completed');
      expect(await statusesSeen()).to.deep.equal(['working', 'input_required', 'working', 'completed']);
      const messages = await page.$$eval('.try-it-task-log li', (items) => items.map((i) => i.textContent));
      expect(messages.some((m) => /Baking in the canary/.test(m!))).to.equal(true);
      await page.locator('#try-it').screenshot({ path: '.artifacts/try-it-ship-release.png' });

      // The wire: tools/call, then tasks/get polls, one tasks/update with the approval, more polls.
      const methods = calls.map((c) => c.body.method);
      expect(methods[0]).to.equal('tools/call');
      expect(methods.filter((m) => m === 'tasks/update')).to.have.length(1);
      expect(methods.filter((m) => m === 'tasks/get').length).to.be.greaterThan(2);
      expect(methods.slice(1).every((m) => m === 'tasks/get' || m === 'tasks/update')).to.equal(true);
      expect(taskCalls().find((c) => c.body.method === 'tasks/update')!.body.params.inputResponses).to.deep.equal({
        approve: { action: 'accept', content: { approve: true, approver: 'ada' } },
      });
      await expectTaskWire(taskId);
    });

    it('cancels a second run mid-build with Cancel task', async () => {
      await openTool(page, server.origin, 'ship-release');
      await page.click('.try-it-arguments button[type="submit"]');
      await page.waitForSelector('.try-it-task[data-status="working"]');
      const taskId = (await page.getAttribute('.try-it-task', 'data-task-id'))!;
      // The build takes four steps of 300 ms: the task is still building when this lands.
      await page.click('button[data-action="cancel-task"]');
      const end = await result(page);
      expect(end.outcome).to.equal('cancelled');
      expect(await page.getAttribute('.try-it-panel', 'data-task-status')).to.equal('cancelled');
      expect(await statusesSeen()).to.deep.equal(['working', 'cancelled']);
      expect(await page.isDisabled('button[data-action="cancel-task"]')).to.equal(true);
      expect(await reach(page, 'result')).to.deep.equal([]);
      const methods = calls.map((c) => c.body.method);
      expect(methods.filter((m) => m === 'tasks/cancel')).to.have.length(1);
      expect(methods).not.to.include('tasks/update');
      await expectTaskWire(taskId);
    });

    it('maps a question asked again inside a task (number.2) to the state that asks it', async () => {
      await openTool(page, server.origin, 'number-task');
      await page.click('.try-it-arguments button[type="submit"]');
      expect(await reach(page, 'asking')).to.deep.equal(['s_asking']);
      expect(await questionKeys(page)).to.deep.equal(['number']);
      await page.fill('.try-it-question[data-key="number"] input[name="n"]', '3');
      await page.click('.try-it-question[data-key="number"] button[data-action="accept"]');
      await page.waitForSelector('.try-it-question[data-key="number.2"]');
      expect(await reach(page, 'asking')).to.deep.equal(['s_asking']);
      expect(await questionKeys(page)).to.deep.equal(['number.2']);
      await page.fill('.try-it-question[data-key="number.2"] input[name="n"]', '12');
      await page.click('.try-it-question[data-key="number.2"] button[data-action="accept"]');
      expect((await result(page)).text).to.equal('got 12');
      const updates = calls.filter((c) => c.body.method === 'tasks/update').map((c) => c.body.params.inputResponses);
      expect(updates).to.deep.equal([
        { number: { action: 'accept', content: { n: 3 } } },
        { 'number.2': { action: 'accept', content: { n: 12 } } },
      ]);
    });
  });

  describe('behind an auth hook', () => {
    const TOKEN = 'try-it-token-0123456789abcdef';
    const authenticate = staticBearerTokens(new Map([[TOKEN, 'reader']]));

    it('sends no credentials unless the operator allowed it', async () => {
      const guarded = await startTestServer({ authenticate, docs: true });
      try {
        await openTool(page, guarded.origin, 'release');
        expect(await page.isVisible('.try-it-token')).to.equal(false);
        await page.click('.try-it-arguments button[type="submit"]');
        expect((await result(page)).outcome).to.equal('error');
        expect(calls[0]!.headers).not.to.have.property('authorization');
      } finally {
        await guarded.close();
      }
    });

    it('sends the typed bearer token with tryItSendsToken', async () => {
      const guarded = await startTestServer({ authenticate, docs: true, tryItSendsToken: true });
      try {
        await openTool(page, guarded.origin, 'release');
        await page.fill('.try-it-token input', TOKEN);
        await page.click('.try-it-arguments button[type="submit"]');
        expect(await reach(page, 'asking', 1)).to.deep.equal(['s_pickWindow']);
        expect(calls[0]!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
      } finally {
        await guarded.close();
      }
    });
  });
});
