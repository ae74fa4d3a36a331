/**
 * The console in a real browser (Debian's chromium, playwright-core), as an operator on call uses
 * it: three ship-release tasks (one waiting for approval, one cancelled, one completed) listed
 * with the right status and state; the waiting one's page draws the tool's diagram with the
 * approval state highlighted; cancel from the page cancels it (tasks/get from the client says
 * `cancelled`); a paused release flow is replayed from its requestState with other answers; a
 * non-operator's token gets 404. Screenshots of the list and the task page are
 * kept as CI artifacts (docs/images/console-*.png are made from them).
 */
import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { staticBearerTokens } from '../../server/http/index.js';
import { countingShipRelease } from '../helpers/counting-ship-release.js';
import { CHROMIUM, CHROMIUM_PATH, requireBinaries } from '../helpers/required-binary.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { getTask, resultOf, taskRpc, waitForTask } from '../helpers/tasks.js';
import { callTool } from '../helpers/mcp-http.js';
import { releaseTool } from '../../machines/examples/release.js';

const OPS = 'ops-token-0123456789abcdef';
const USER = 'user-token-0123456789abcdef';
const AS_USER = { headers: { authorization: `Bearer ${USER}` } };

describe('the console in a real browser', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let browser: Browser;
  let operator: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const ids: Record<'waiting' | 'cancelled' | 'completed', string> = { waiting: '', cancelled: '', completed: '' };

  const start = async (version: string, bakeSeconds = 3600) => {
    const created = resultOf(
      await taskRpc(
        server.url,
        'tools/call',
        { name: 'ship-release', arguments: { service: 'checkout', version, bakeSeconds } },
        AS_USER,
      ),
    );
    const taskId = (created.task?.taskId ?? created.taskId) as string;
    await waitForTask(server.url, taskId, (t) => t.status === 'input_required', AS_USER);
    return taskId;
  };

  before(async function () {
    requireBinaries(this, CHROMIUM);
    const { tool } = countingShipRelease({ stepMs: 1 });
    server = await startTestServer({
      tools: [tool, releaseTool],
      authenticate: staticBearerTokens(
        new Map([
          [OPS, 'ops'],
          [USER, 'user'],
        ]),
      ),
      console: { operators: ['token:ops'] },
    });
    ids.completed = await start('2.4.0', 1);
    resultOf(
      await taskRpc(
        server.url,
        'tasks/update',
        { taskId: ids.completed, inputResponses: { approve: { action: 'accept', content: { approve: true } } } },
        AS_USER,
      ),
    );
    await waitForTask(server.url, ids.completed, (t) => t.status === 'completed', { ...AS_USER, timeoutMs: 20_000 });
    ids.cancelled = await start('2.4.1');
    resultOf(await taskRpc(server.url, 'tasks/cancel', { taskId: ids.cancelled }, AS_USER));
    ids.waiting = await start('2.5.0');
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    operator = await browser.newContext({
      viewport: { width: 1200, height: 760 },
      extraHTTPHeaders: { authorization: `Bearer ${OPS}` },
    });
    page = await operator.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.url().includes('/assets/') && response.status() !== 200) problems.push(`asset ${response.url()}`);
    });
    mkdirSync('.artifacts', { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  afterEach(() => expect(problems.splice(0), 'browser errors').to.deep.equal([]));

  it('lists the three tasks with their status and the state each waits in', async () => {
    expect((await page.goto(`${server.origin}/console`))?.status()).to.equal(200);
    const rows = await page.$$eval('tr[data-task]', (trs) =>
      trs.map((tr) => ({
        id: tr.getAttribute('data-task'),
        status: tr.getAttribute('data-status'),
        state: tr.children[3]?.textContent?.trim(),
      })),
    );
    expect(rows).to.deep.include({ id: ids.waiting, status: 'input_required', state: 'awaitingApproval' });
    expect(rows).to.deep.include({ id: ids.cancelled, status: 'cancelled', state: '–' });
    expect(rows).to.deep.include({ id: ids.completed, status: 'completed', state: '–' });
    await page.screenshot({ path: '.artifacts/console-tasks.png', clip: { x: 0, y: 0, width: 1200, height: 390 } });
  });

  it('draws the waiting task on its diagram with the approval state highlighted', async () => {
    expect((await page.goto(`${server.origin}/console/tasks/${ids.waiting}`))?.status()).to.equal(200);
    await page.waitForSelector('html[data-diagrams="done"]', { timeout: 60_000 });
    const box = await page.$eval('.console-diagram', (d) => ({
      rendered: (d as HTMLElement).dataset.rendered,
      highlighted: (d as HTMLElement).dataset.highlighted,
      current: (d as HTMLElement).dataset.current,
      marked: Array.from(d.querySelectorAll('g.console-current')).map((g) => g.textContent?.trim()),
    }));
    expect(box.rendered).to.equal('ok');
    expect(box.highlighted).to.equal(box.current);
    expect(box.marked.join(' ')).to.include('awaitingApproval');
    await page.screenshot({
      path: '.artifacts/console-task.png',
      fullPage: true,
      clip: { x: 0, y: 0, width: 1200, height: 1130 },
    });
  });

  it('cancels the task from its page: the client’s tasks/get says cancelled', async () => {
    await page.goto(`${server.origin}/console/tasks/${ids.waiting}`);
    await Promise.all([page.waitForURL(/\?cancel=cancelled$/), page.click('form.cancel button')]);
    expect(await page.textContent('.notice')).to.include('cancelled');
    expect((await getTask(server.url, ids.waiting, AS_USER)).status).to.equal('cancelled');
  });

  it('updates the list and a task’s page as the task changes, without reloading', async () => {
    let navigations = 0;
    page.on('framenavigated', () => (navigations += 1));
    await page.goto(`${server.origin}/console`);
    await page.waitForSelector('html[data-live="on"]');
    navigations = 0;
    const id = await start('3.0.0');
    await page.waitForSelector(`tr[data-task="${id}"][data-status="input_required"]`, { timeout: 15_000 });
    await page.goto(`${server.origin}/console/tasks/${id}`);
    await page.waitForSelector('html[data-diagrams="done"]', { timeout: 60_000 });
    await page.waitForSelector('html[data-live="on"]');
    navigations = 0;
    resultOf(
      await taskRpc(
        server.url,
        'tasks/update',
        { taskId: id, inputResponses: { approve: { action: 'accept', content: { approve: true } } } },
        AS_USER,
      ),
    );
    await page.waitForSelector('#live-body tr[data-kind="answered"]', { timeout: 15_000 });
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('.console-diagram g.console-visited')).some((g) =>
          g.textContent?.includes('awaitingApproval'),
        ),
      undefined,
      { timeout: 15_000 },
    );
    const marked = await page.$$eval('.console-diagram g.console-current', (gs) => gs.map((g) => g.textContent));
    expect(marked.join(' ')).to.include('baking');
    expect(navigations).to.equal(0);
  });

  it('replays a paused flow from its requestState: where it stands, then on with an answer', async () => {
    const args = { service: 'checkout', version: '2.6.0' };
    const first = resultOf(await callTool(server.url, 'release', args, {}, AS_USER));
    const paused = resultOf(
      await callTool(
        server.url,
        'release',
        args,
        {
          requestState: first.requestState,
          inputResponses: { window: { action: 'accept', content: { window: 'tonight' } } },
        },
        AS_USER,
      ),
    );
    await page.goto(`${server.origin}/console/replay`);
    await page.fill('#replay-state', paused.requestState as string);
    await Promise.all([page.waitForLoadState('load'), page.click('form.replay-open button')]);
    await page.waitForSelector('html[data-diagrams="done"]', { timeout: 60_000 });
    const marked = await page.$$eval('.console-diagram g.console-current', (gs) =>
      gs.map((g) => g.textContent?.trim()),
    );
    expect(marked.join(' ')).to.include('confirm');
    expect(await page.textContent('.replay-context')).to.include('tonight');
    await page.screenshot({ path: '.artifacts/console-replay.png', fullPage: true });
    await page.selectOption('select[name="action:confirm"]', 'accept');
    await page.selectOption('select[name^="answer:"]', 'true');
    await Promise.all([page.waitForLoadState('load'), page.click('form.replay-answer button[type="submit"]')]);
    expect(await page.textContent('main')).to.include('It ended');
    expect(await page.textContent('.replay-result')).to.include('checkout');
  });

  it('is a 404 to a non-operator’s token', async () => {
    const user = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${USER}` } });
    try {
      const other = await user.newPage();
      expect((await other.goto(`${server.origin}/console`))?.status()).to.equal(404);
      expect((await other.goto(`${server.origin}/console/tasks/${ids.completed}`))?.status()).to.equal(404);
    } finally {
      await user.close();
    }
  });
});
