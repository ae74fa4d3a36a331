/**
 * The console's reveal and answer actions (server/http/console-routes.ts): arguments and answers
 * hidden until an operator reveals them, which is logged; a pending question answered from the
 * task page in `baton dev` only, through the path tasks/update takes; and the red-team side: both
 * POSTs refuse a foreign origin and a missing, forged or other action's token, and answer 404 to
 * anyone but an operator.
 */
import { expect } from 'chai';
import type { Logger } from '../../server/engine/index.js';
import { staticBearerTokens } from '../../server/http/index.js';
import { countingShipRelease } from '../helpers/counting-ship-release.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { getTask, resultOf, taskRpc, waitForTask } from '../helpers/tasks.js';

const OPS = 'ops-token-0123456789abcdef';
const USER = 'user-token-0123456789abcdef';
const AS_USER = { headers: { authorization: `Bearer ${USER}` } };
const ARGUMENT = 'secret-service-name-31337';

async function get(url: string, token?: string) {
  const response = await fetch(url, { redirect: 'manual', headers: token ? { authorization: `Bearer ${token}` } : {} });
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

/** The token of the form posting to `<action>` on a task page. */
function tokenOf(html: string, action: string): string {
  const form = new RegExp(`action="[^"]*/${action}"[^>]*>\\s*<input type="hidden" name="csrf" value="([^"]+)"`).exec(
    html,
  );
  return form![1]!;
}

function recordingLogger(lines: Array<{ event: string; fields: Record<string, unknown> }>): Logger {
  const write = (event: string, fields: Record<string, unknown> = {}) => lines.push({ event, fields });
  return { info: write, warn: write, error: write };
}

async function startShipRelease(server: RunningServer, options = {}): Promise<string> {
  const created = resultOf(
    await taskRpc(
      server.url,
      'tools/call',
      { name: 'ship-release', arguments: { service: ARGUMENT, version: '1.0.0', bakeSeconds: 1 } },
      options,
    ),
  );
  const taskId = (created.task?.taskId ?? created.taskId) as string;
  await waitForTask(server.url, taskId, (t) => t.status === 'input_required', options);
  return taskId;
}

describe('the console’s reveal and answer actions', function () {
  this.timeout(60_000);

  describe('served with tokens (not baton dev)', () => {
    let server: RunningServer;
    let taskId: string;
    const lines: Array<{ event: string; fields: Record<string, unknown> }> = [];

    before(async () => {
      server = await startTestServer({
        tools: [countingShipRelease({ stepMs: 1 }).tool],
        authenticate: staticBearerTokens(
          new Map([
            [OPS, 'ops'],
            [USER, 'user'],
          ]),
        ),
        console: { operators: ['token:ops'] },
        logger: recordingLogger(lines),
      });
      taskId = await startShipRelease(server, AS_USER);
    });
    after(() => server?.close());

    it('hides the arguments by default, and offers a reveal form', async () => {
      const page = await get(`${server.origin}/console/tasks/${taskId}`, OPS);
      expect(page.text).not.to.include(ARGUMENT);
      expect(page.text).to.include('<form class="reveal" method="post"');
      expect(page.text).not.to.include('<form class="answer"'); // not baton dev
    });

    it('shows them once after the POST, for that response only, and logs who asked', async () => {
      const page = await get(`${server.origin}/console/tasks/${taskId}`, OPS);
      const revealed = await post(
        `${server.origin}/console/tasks/${taskId}/reveal`,
        `csrf=${encodeURIComponent(tokenOf(page.text, 'reveal'))}`,
        OPS,
        { origin: server.origin, 'sec-fetch-site': 'same-origin' },
      );
      expect(revealed.status).to.equal(200);
      expect(revealed.text).to.include(ARGUMENT);
      expect(revealed.headers.get('cache-control')).to.equal('no-store');
      expect(revealed.headers.get('content-security-policy')).to.include("script-src 'self'");
      expect(revealed.text).not.to.include('data-events='); // not refreshed: that would show them again
      expect(lines).to.deep.include({ event: 'console_task_revealed', fields: { taskId, operator: 'token:ops' } });
      expect((await get(`${server.origin}/console/tasks/${taskId}`, OPS)).text).not.to.include(ARGUMENT);
    });

    it('refuses a reveal from another origin, without an origin, without the token, or with the cancel token', async () => {
      const page = await get(`${server.origin}/console/tasks/${taskId}`, OPS);
      const token = tokenOf(page.text, 'reveal');
      const url = `${server.origin}/console/tasks/${taskId}/reveal`;
      const before = lines.length;
      const refusals = [
        await post(url, `csrf=${token}`, OPS, { origin: 'https://evil.example' }),
        await post(url, `csrf=${token}`, OPS),
        await post(url, `csrf=${token}`, OPS, { origin: server.origin, 'sec-fetch-site': 'cross-site' }),
        await post(url, '', OPS, { origin: server.origin }),
        await post(url, `csrf=${encodeURIComponent(tokenOf(page.text, 'cancel'))}`, OPS, { origin: server.origin }),
        await post(url, `csrf=${encodeURIComponent(token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))}`, OPS, {
          origin: server.origin,
        }),
      ];
      expect(refusals.map((r) => r.status)).to.deep.equal([403, 403, 403, 403, 403, 403]);
      for (const refusal of refusals) expect(refusal.text).not.to.include(ARGUMENT);
      expect(lines.slice(before).filter((l) => l.event === 'console_task_revealed')).to.deep.equal([]);
    });

    it('answers a non-operator 404 on both POSTs, and the answer route 404 outside baton dev', async () => {
      const page = await get(`${server.origin}/console/tasks/${taskId}`, OPS);
      const token = tokenOf(page.text, 'reveal');
      for (const action of ['reveal', 'answer']) {
        for (const who of [USER, 'not-a-known-token-0123456789', undefined]) {
          const answer = await post(`${server.origin}/console/tasks/${taskId}/${action}`, `csrf=${token}`, who, {
            origin: server.origin,
          });
          expect(answer.status, `${action} ${who}`).to.equal(404);
          expect(answer.text).not.to.include(ARGUMENT);
        }
      }
      const answer = await post(
        `${server.origin}/console/tasks/${taskId}/answer`,
        `csrf=${token}&key=approve&action=accept&f.approve=true`,
        OPS,
        { origin: server.origin },
      );
      expect(answer.status).to.equal(404);
      expect((await getTask(server.url, taskId, AS_USER)).status).to.equal('input_required');
    });
  });

  describe('in baton dev', () => {
    let server: RunningServer;
    const lines: Array<{ event: string; fields: Record<string, unknown> }> = [];

    before(async () => {
      // `baton dev` with tokens: loopback marks development; tokens still say who is an operator.
      server = await startTestServer({
        tools: [countingShipRelease({ stepMs: 1 }).tool],
        authenticate: staticBearerTokens(
          new Map([
            [OPS, 'ops'],
            [USER, 'user'],
          ]),
        ),
        console: { operators: ['token:ops'], loopback: true },
        logger: recordingLogger(lines),
      });
    });
    after(() => server?.close());

    it('draws a form per pending question from its schema', async () => {
      const taskId = await startShipRelease(server, AS_USER);
      const page = await get(`${server.origin}/console/tasks/${taskId}`, OPS);
      const form = /<form class="answer"[\s\S]*?<\/form>/.exec(page.text)![0];
      expect(form).to.include('data-question="approve"');
      expect(form).to.include('<input type="checkbox" name="f.approve" value="true">');
      expect(form).to.include('<input type="text" name="f.approver" maxlength="100">');
      expect(form).to.include('value="decline"');
    });

    it('answers the question as tasks/update does: the task goes on and completes, the answer logged by key', async () => {
      const taskId = await startShipRelease(server, AS_USER);
      const page = await get(`${server.origin}/console/tasks/${taskId}`, OPS);
      const answered = await post(
        `${server.origin}/console/tasks/${taskId}/answer`,
        `csrf=${encodeURIComponent(tokenOf(page.text, 'answer'))}&key=approve&action=accept&f.approve=true&f.approver=Ops`,
        OPS,
        { origin: server.origin, 'sec-fetch-site': 'same-origin' },
      );
      expect(answered.status).to.equal(303);
      expect(answered.headers.get('location')).to.equal(`/console/tasks/${taskId}?answer=answered`);
      const done = await waitForTask(server.url, taskId, (t) => t.status === 'completed', {
        ...AS_USER,
        timeoutMs: 20_000,
      });
      expect(JSON.stringify(done.result)).to.include('"approvedBy":"Ops"');
      expect(lines).to.deep.include({
        event: 'console_task_answered',
        fields: { taskId, operator: 'token:ops', keys: ['approve'] },
      });
      const after = await get(`${server.origin}/console/tasks/${taskId}?answer=answered`, OPS);
      expect(after.text).to.include('The answer was sent');
      expect(after.text).to.include('data-kind="answered"');
    });

    it('declines, and refuses an answer without the token, with another task’s, or from another origin', async () => {
      const taskId = await startShipRelease(server, AS_USER);
      const other = await startShipRelease(server, AS_USER);
      const page = await get(`${server.origin}/console/tasks/${taskId}`, OPS);
      const token = tokenOf(page.text, 'answer');
      const otherToken = tokenOf((await get(`${server.origin}/console/tasks/${other}`, OPS)).text, 'answer');
      const url = `${server.origin}/console/tasks/${taskId}/answer`;
      const body = (csrf: string) => `csrf=${encodeURIComponent(csrf)}&key=approve&action=decline`;
      const refusals = [
        await post(url, body(token), OPS, { origin: 'https://evil.example' }),
        await post(url, body(token), OPS),
        await post(url, 'key=approve&action=decline', OPS, { origin: server.origin }),
        await post(url, body(otherToken), OPS, { origin: server.origin }),
        await post(url, body(tokenOf(page.text, 'reveal')), OPS, { origin: server.origin }),
        await post(url, body(token), USER, { origin: server.origin }),
      ];
      expect(refusals.map((r) => r.status)).to.deep.equal([403, 403, 403, 403, 403, 404]);
      expect((await getTask(server.url, taskId, AS_USER)).status).to.equal('input_required');
      const declined = await post(url, body(token), OPS, { origin: server.origin });
      expect(declined.status).to.equal(303);
      const done = await waitForTask(server.url, taskId, (t) => t.status === 'completed', AS_USER);
      expect(JSON.stringify(done.result)).to.include('was not approved');
    });

    it('escapes markup in the question as asked', async () => {
      const { answerForms } = await import('../../server/console/index.js');
      const xss = '<script>alert(1)</script>';
      const html = answerForms('/console/tasks/t/answer', 'tok"en', [
        {
          key: xss,
          questionKey: 'q',
          method: 'elicitation/create',
          message: xss,
          requestedSchema: {
            type: 'object',
            properties: { [xss]: { type: 'string', title: xss, enum: [xss] } },
          },
        },
      ]);
      expect(html).not.to.include('<script>').and.not.to.include('tok"en');
    });
  });
});
