/**
 * The console over HTTP (server/http/console-routes.ts): operators only, everyone else a 404 that
 * looks like any unknown path; the pages' policy; a task's page with its state on the diagram;
 * and the red-team patterns: markup in a tool's output, a status message or a tool name is
 * escaped, a cancel from another origin or without the page's token is refused.
 */
import { expect } from 'chai';
import { MemoryTaskStore } from '../../server/engine/index.js';
import { AuthenticationError, staticBearerTokens, type Authenticate } from '../../server/http/index.js';
import { createServer } from '../../server/create-server.js';
import { taskDiagram } from '../../server/console/index.js';
import { countingShipRelease } from '../helpers/counting-ship-release.js';
import { startTestServer, testKeyRing, type RunningServer } from '../helpers/test-server.js';
import { getTask, resultOf, taskRpc, waitForTask } from '../helpers/tasks.js';
import { listedRecord } from '../engine/tasks/task-listing-cases.js';

const OPS = 'ops-token-0123456789abcdef';
const USER = 'user-token-0123456789abcdef';
const XSS = '<script>alert(1)</script><img src=x onerror=alert(2)>';

async function get(url: string, token?: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    redirect: 'manual',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function post(url: string, body: string, token: string | undefined, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The form's token on a task page. */
function csrfOf(html: string): string {
  return /name="csrf" value="([^"]+)"/.exec(html)![1]!;
}

describe('GET /console', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let store: MemoryTaskStore;
  let waitingId: string;

  before(async () => {
    store = new MemoryTaskStore();
    const { tool } = countingShipRelease({ stepMs: 1 });
    server = await startTestServer({
      tools: [tool],
      authenticate: staticBearerTokens(
        new Map([
          [OPS, 'ops'],
          [USER, 'user'],
        ]),
      ),
      console: { operators: ['token:ops'] },
      tasks: { store },
    });
    const created = resultOf(
      await taskRpc(
        server.url,
        'tools/call',
        { name: 'ship-release', arguments: { service: 'api', version: '1.0.0' } },
        {
          headers: { authorization: `Bearer ${USER}` },
        },
      ),
    );
    waitingId = created.task?.taskId ?? created.taskId;
    await waitForTask(server.url, waitingId, (t) => t.status === 'input_required', {
      headers: { authorization: `Bearer ${USER}` },
    });
  });
  after(() => server?.close());

  it('answers a non-operator, a refused token and no token exactly as an unknown path: 404', async () => {
    const unknown = await get(`${server.origin}/no-such-page`, OPS);
    expect(unknown.status).to.equal(404);
    for (const path of [
      '/console',
      '/console/stuck',
      `/console/tasks/${waitingId}`,
      '/console/assets/console.css',
      '/console/assets/mermaid.min.js',
    ]) {
      for (const token of [USER, 'not-a-known-token-0123456789', undefined]) {
        const answer = await get(`${server.origin}${path}`, token);
        expect(answer.status, `${path} ${token}`).to.equal(404);
        expect(answer.text).to.equal(unknown.text);
        expect(answer.headers.get('content-security-policy')).to.equal(null);
        expect(answer.headers.get('www-authenticate')).to.equal(null);
      }
    }
    const cancel = await post(`${server.origin}/console/tasks/${waitingId}/cancel`, 'csrf=x', USER, {
      origin: server.origin,
    });
    expect(cancel.status).to.equal(404);
  });

  it('lists every principal’s tasks for an operator, with status, state and the docs pages’ policy', async () => {
    const page = await get(`${server.origin}/console`, OPS);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy'))
      .to.include("script-src 'self'")
      .and.include("frame-ancestors 'none'")
      .and.include("form-action 'self'");
    expect(page.headers.get('cache-control')).to.equal('no-store');
    expect(page.text).to.include(`data-task="${waitingId}" data-status="input_required"`);
    expect(page.text).to.include('<code>awaitingApproval</code>');
    expect(page.text).not.to.include('1.0.0'); // an argument
    const filtered = await get(`${server.origin}/console?status=completed`, OPS);
    expect(filtered.text).not.to.include(`data-task="${waitingId}"`);
  });

  it('shows a task on its tool’s diagram, the state it waits in named for the browser to highlight', async () => {
    const page = await get(`${server.origin}/console/tasks/${waitingId}`, OPS);
    expect(page.status).to.equal(200);
    const box = /<div class="diagram console-diagram"[^>]*data-current="([^"]*)"/.exec(page.text);
    const { tool } = countingShipRelease();
    expect(box?.[1]).to.equal(taskDiagram(tool, ['awaitingApproval']).current.join(' '));
    expect(box?.[1]).to.match(/awaitingApproval/);
    expect(page.text).to.include('stateDiagram-v2');
    expect(page.text).to.match(/data-question="approve">/);
    expect(page.text).to.include('<form class="cancel" method="post"');
    for (const asset of ['console.css', 'console.js', 'diagram-view.js', 'mermaid.min.js']) {
      expect((await get(`${server.origin}/console/assets/${asset}`, OPS)).status, asset).to.equal(200);
    }
  });

  it('escapes markup in a tool name, a status message, a result and an error', async () => {
    const now = Date.now();
    await store.create(
      listedRecord('xss-done', {
        tool: XSS,
        statusMessage: XSS,
        status: 'completed',
        snapshot: undefined,
        result: { content: [{ type: 'text', text: XSS }] },
        createdAt: now,
        lastUpdatedAt: now,
      }),
    );
    await store.create(
      listedRecord('xss-failed', {
        statusMessage: XSS,
        status: 'failed',
        snapshot: undefined,
        error: { code: -32603, message: XSS },
        createdAt: now,
        lastUpdatedAt: now,
      }),
    );
    for (const path of [
      '/console',
      '/console/tasks/xss-done',
      '/console/tasks/xss-failed',
      '/console/stuck?unchanged=1',
    ]) {
      const page = await get(`${server.origin}${path}`, OPS);
      expect(page.status, path).to.equal(200);
      expect(page.text, path).not.to.include('<script>alert').and.not.to.include('<img src=x');
    }
    expect((await get(`${server.origin}/console/tasks/xss-done`, OPS)).text).to.include('&#60;script&#62;alert(1)');
  });

  it('refuses a cancel from another origin, without an origin, without the page’s token or with another task’s', async () => {
    const page = await get(`${server.origin}/console/tasks/${waitingId}`, OPS);
    const token = csrfOf(page.text);
    const url = `${server.origin}/console/tasks/${waitingId}/cancel`;
    const refusals = [
      await post(url, `csrf=${token}`, OPS, { origin: 'https://evil.example' }),
      await post(url, `csrf=${token}`, OPS),
      await post(url, `csrf=${token}`, OPS, { origin: server.origin, 'sec-fetch-site': 'cross-site' }),
      await post(url, '', OPS, { origin: server.origin }),
      await post(url, `csrf=${encodeURIComponent(token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))}`, OPS, {
        origin: server.origin,
      }),
    ];
    const now = Date.now();
    await store.create(listedRecord('other-task', { createdAt: now, lastUpdatedAt: now }));
    const other = csrfOf((await get(`${server.origin}/console/tasks/other-task`, OPS)).text);
    refusals.push(await post(url, `csrf=${other}`, OPS, { origin: server.origin }));
    expect(refusals.map((r) => r.status)).to.deep.equal([403, 403, 403, 403, 403, 403]);
    const task = await getTask(server.url, waitingId, { headers: { authorization: `Bearer ${USER}` } });
    expect(task.status).to.equal('input_required');
  });

  it('cancels any principal’s task from its page, as tasks/cancel does', async () => {
    const page = await get(`${server.origin}/console/tasks/${waitingId}`, OPS);
    const answer = await post(`${server.origin}/console/tasks/${waitingId}/cancel`, `csrf=${csrfOf(page.text)}`, OPS, {
      origin: server.origin,
      'sec-fetch-site': 'same-origin',
    });
    expect(answer.status).to.equal(303);
    expect(answer.headers.get('location')).to.equal(`/console/tasks/${waitingId}?cancel=cancelled`);
    const task = await getTask(server.url, waitingId, { headers: { authorization: `Bearer ${USER}` } });
    expect(task.status).to.equal('cancelled');
    const after = await get(`${server.origin}/console/tasks/${waitingId}?cancel=cancelled`, OPS);
    expect(after.text).to.include('class="notice"').and.not.to.include('<form class="cancel"');
  });
});

describe('who may open the console', () => {
  const scoped: Authenticate = (ctx) => {
    const token = ctx.get('authorization').replace(/^Bearer /, '');
    if (token === 'operator') return { id: 'https://issuer|op', authenticated: true, scopes: ['mcp', 'ops:console'] };
    if (token === 'default-scope') return { id: 'https://issuer|d', authenticated: true, scopes: ['baton:operator'] };
    if (token === 'user') return { id: 'https://issuer|u', authenticated: true, scopes: ['mcp'] };
    throw new AuthenticationError('no');
  };

  it('takes an OAuth token with the operator scope, as configured, and nothing else', async () => {
    const server = await startTestServer({ authenticate: scoped, console: { operatorScope: 'ops:console' } });
    try {
      expect((await get(`${server.origin}/console`, 'operator')).status).to.equal(200);
      expect((await get(`${server.origin}/console`, 'default-scope')).status).to.equal(404);
      expect((await get(`${server.origin}/console`, 'user')).status).to.equal(404);
    } finally {
      await server.close();
    }
  });

  it('without authentication: loopback callers in `baton dev` only, and the console refuses to start without a way in', async () => {
    const dev = await startTestServer({ console: { loopback: true } });
    try {
      expect((await get(`${dev.origin}/console`)).status).to.equal(200);
    } finally {
      await dev.close();
    }
    expect(() => createServer({ keyRing: testKeyRing(), tools: [], console: true })).to.throw(/operators only/);
  });

  it('is not there at all when off', async () => {
    const server = await startTestServer({ authenticate: scoped });
    try {
      expect((await get(`${server.origin}/console`, 'default-scope')).status).to.equal(404);
    } finally {
      await server.close();
    }
  });
});
