/**
 * Replay over the console (issue 42 item 2, docs/console.md "Replay a paused flow"): a client's
 * `provision-database` state paused at its confirmation is opened and continued twice from the
 * console with different answers, on the tool's stand-ins; the client's own state then still
 * completes once. Operators only (404 to others), same-origin POSTs with the page's token, every
 * value shown escaped, and each step logged.
 */
import { expect } from 'chai';
import { fromPromise } from 'xstate';
import { staticBearerTokens } from '../../server/http/index.js';
import type { ToolDefinition } from '../../server/engine/index.js';
import { provisionDatabaseTool, provisionMachine } from '../../machines/examples/provision-database.js';
import { callTool } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const OPS = 'ops-token-0123456789abcdef';
const USER = 'user-token-0123456789abcdef';
const XSS = '<script>alert(1)</script>';

function decode(html: string): string {
  return html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

describe('POST /console/replay', function () {
  this.timeout(30_000);
  let server: RunningServer;
  const effects = { real: 0, standIn: 0 };
  const events: Array<[string, Record<string, unknown>]> = [];
  let paused: string;

  const tool: ToolDefinition = {
    ...provisionDatabaseTool,
    machine: provisionMachine.provide({
      actors: {
        provision: fromPromise(async () => {
          effects.real += 1;
          return { databaseUrl: 'postgres://real' };
        }),
      },
    }),
    exampleActors: {
      provision: fromPromise(async () => {
        effects.standIn += 1;
        return { databaseUrl: 'postgres://stand-in' };
      }),
    },
  };

  const asUser = { authorization: `Bearer ${USER}` };
  const call = async (args: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const response = await callTool(server.url, 'provision-database', args, extra, { headers: asUser });
    expect(response.status, response.text).to.equal(200);
    return response.body.result;
  };
  const page = async (token = OPS) => {
    const response = await fetch(`${server.origin}/console/replay`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, text: await response.text() };
  };
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;
  const post = async (
    fields: Record<string, string>,
    headers: Record<string, string> = { origin: server.origin },
    token = OPS,
  ) => {
    const response = await fetch(`${server.origin}/console/replay`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}`, ...headers },
    });
    return { status: response.status, text: await response.text() };
  };
  const hidden = (html: string, name: string) => decode(new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!);

  before(async () => {
    server = await startTestServer({
      tools: [tool],
      authenticate: staticBearerTokens(
        new Map([
          [OPS, 'ops'],
          [USER, 'user'],
        ]),
      ),
      console: { operators: ['token:ops'] },
      logger: { info: (event: string, fields: any) => void events.push([event, fields]), warn() {}, error() {} },
    });
    const first = await call({ project: XSS });
    const confirm = await call(
      { project: XSS },
      {
        requestState: first.requestState,
        inputResponses: {
          size: { action: 'accept', content: { size: 'small' } },
          region: { action: 'accept', content: { region: 'eu-west' } },
        },
      },
    );
    expect(Object.keys(confirm.inputRequests)).to.deep.equal(['confirm']);
    paused = confirm.requestState;
  });
  after(() => server?.close());

  it('opens the state: where it waits on the diagram, its context escaped, and the question as a form', async () => {
    const csrf = csrfOf((await page()).text);
    const opened = await post({ csrf, requestState: paused });
    expect(opened.status).to.equal(200);
    expect(opened.text).to.include('data-current="').and.include('<code>confirm</code>');
    expect(opened.text).to.include('&#60;script&#62;alert(1)&#60;/script&#62;').and.not.include(XSS);
    expect(decode(opened.text)).to.include('name="answer:["confirm","confirm","boolean"]"');
    expect(hidden(opened.text, 'requestState')).to.not.equal(paused); // a fork to continue from
    expect(hidden(opened.text, 'origin')).to.equal(paused);
  });

  it('continues it twice with different answers on the stand-ins, and logs each step', async () => {
    const csrf = csrfOf((await page()).text);
    const answer = async (confirm: 'true' | 'false') => {
      const opened = await post({ csrf, requestState: paused });
      return post({
        csrf,
        requestState: hidden(opened.text, 'requestState'),
        origin: paused,
        'action:confirm': 'accept',
        'answer:["confirm","confirm","boolean"]': confirm,
      });
    };
    const yes = await answer('true');
    expect(yes.text).to.include('It ended').and.include('postgres://stand-in');
    const no = await answer('false');
    expect(no.text).to.include('cancelled: nothing was created');
    expect(effects).to.deep.equal({ real: 0, standIn: 1 });
    const steps = events.filter(([event]) => event === 'console_state_replayed').map(([, fields]) => fields);
    expect(steps.length).to.be.at.least(4);
    expect(steps[0]).to.include({ operator: 'token:ops', tool: 'provision-database', fork: false, answered: false });
    expect(steps.at(-1)).to.include({ fork: true, answered: true });
  });

  it("leaves the client's state to complete once, running the real effect once", async () => {
    const done = await call(
      { project: XSS },
      { requestState: paused, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
    );
    expect(done.structuredContent).to.include({ databaseUrl: 'postgres://real' });
    expect(effects.real).to.equal(1);
  });

  it('answers anyone but an operator as an unknown path, and refuses a POST without the page or its token', async () => {
    expect((await page(USER)).status).to.equal(404);
    const csrf = csrfOf((await page()).text);
    expect((await post({ csrf, requestState: paused }, { origin: server.origin }, USER)).status).to.equal(404);
    expect((await post({ csrf, requestState: paused }, { origin: 'https://evil.example' })).status).to.equal(403);
    expect((await post({ csrf, requestState: paused }, {})).status).to.equal(403);
    expect((await post({ csrf: 'k1.0.x', requestState: paused })).status).to.equal(403);
    expect(effects.standIn).to.equal(1);
  });

  it('says so, without the payload, when a state does not open', async () => {
    const csrf = csrfOf((await page()).text);
    const refused = await post({ csrf, requestState: `${paused.slice(0, -6)}AAAAAA` });
    expect(refused.status).to.equal(200);
    expect(refused.text).to.include('does not open with this server’s keys').and.not.include('eu-west');
  });
});
