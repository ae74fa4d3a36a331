/**
 * The console's timeline (docs/console.md, "A task's page"): the list's instance column, the
 * task page's timeline table and the states it passed through named for the diagram; and the
 * red-team side: markup in an instance id or a state name is escaped.
 */
import { expect } from 'chai';
import { MemoryTaskStore } from '../../server/engine/index.js';
import { staticBearerTokens } from '../../server/http/index.js';
import { countingShipRelease } from '../helpers/counting-ship-release.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { resultOf, taskRpc, waitForTask } from '../helpers/tasks.js';
import { listedRecord } from '../engine/tasks/task-listing-cases.js';

const OPS = 'ops-token-0123456789abcdef';
const USER = 'user-token-0123456789abcdef';
const XSS = '<script>alert(1)</script><img src=x onerror=alert(2)>';
const AS_USER = { headers: { authorization: `Bearer ${USER}` } };

async function get(url: string, token?: string) {
  const response = await fetch(url, { redirect: 'manual', headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, text: await response.text() };
}

describe('the console’s timeline', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let store: MemoryTaskStore;
  let waitingId: string;

  before(async () => {
    store = new MemoryTaskStore();
    server = await startTestServer({
      tools: [countingShipRelease({ stepMs: 1 }).tool],
      authenticate: staticBearerTokens(
        new Map([
          [OPS, 'ops'],
          [USER, 'user'],
        ]),
      ),
      console: { operators: ['token:ops'] },
      instanceId: 'console-host:777',
      tasks: { store },
    });
    const created = resultOf(
      await taskRpc(
        server.url,
        'tools/call',
        { name: 'ship-release', arguments: { service: 'api', version: '1.0.0' } },
        AS_USER,
      ),
    );
    waitingId = created.task?.taskId ?? created.taskId;
    await waitForTask(server.url, waitingId, (t) => t.status === 'input_required', AS_USER);
  });
  after(() => server?.close());

  it('lists the instance that last ran a step', async () => {
    const page = await get(`${server.origin}/console`, OPS);
    expect(page.text).to.include('<th>Instance</th>');
    const row = new RegExp(`data-task="${waitingId}"[\\s\\S]*?</tr>`).exec(page.text)![0];
    expect(row).to.include('<td class="instance"><code>console-host:777</code></td>');
  });

  it('shows the timeline as a table and names the states passed through for the diagram', async () => {
    const page = await get(`${server.origin}/console/tasks/${waitingId}`, OPS);
    const table = /<table class="timeline">[\s\S]*?<\/table>/.exec(page.text)![0];
    const kinds = [...table.matchAll(/data-kind="([a-z]+)"/g)].map((m) => m[1]);
    expect(kinds).to.deep.equal(['created', 'start', 'end']);
    expect(table).to.include('step ended: asked <code>approve</code>');
    expect(table).to.include('<code>console-host:777</code>');
    const visited = /data-visited="([^"]*)"/.exec(page.text)![1]!;
    expect(visited).to.match(/building/);
    expect(visited).not.to.match(/awaitingApproval/); // the current state is highlighted, not marked as passed
  });

  it('says when a task was stored before timelines were kept', async () => {
    const now = Date.now();
    await store.create(listedRecord('old-record', { createdAt: now, lastUpdatedAt: now }));
    const page = await get(`${server.origin}/console/tasks/old-record`, OPS);
    expect(page.text).to.include('stored before timelines were kept');
  });

  it('escapes markup in an instance id and in a state name', async () => {
    const now = Date.now();
    await store.create(
      listedRecord('xss-instance', {
        createdAt: now,
        lastUpdatedAt: now,
        snapshot: { status: 'active', value: { [XSS]: 'approve' }, context: {} },
        history: {
          entries: [
            { t: 0, e: 'created' },
            { t: 1, e: 'start', i: XSS },
            { t: 2, e: 'end', i: XSS, x: 'asked', k: [XSS] },
          ],
          visited: [XSS, `${XSS}.approve`],
        },
      }),
    );
    for (const path of ['/console', '/console/tasks/xss-instance', '/console/stuck?unchanged=1']) {
      const page = await get(`${server.origin}${path}`, OPS);
      expect(page.status, path).to.equal(200);
      expect(page.text, path).not.to.include('<script>alert').and.not.to.include('<img src=x');
    }
    const page = await get(`${server.origin}/console/tasks/xss-instance`, OPS);
    expect(page.text).to.include('&#60;script&#62;alert(1)');
  });
});
