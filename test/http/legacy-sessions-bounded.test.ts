/**
 * 2025-11-25 sessions cannot be made to cost an instance much: a session keeps only the
 * capabilities Baton asks about, one caller has a bounded number of live sessions, and
 * `resources/subscribe` takes only URIs the server serves, a bounded number per session. Also the
 * wire deviations the red team found: an `initialize` sent as a notification opens nothing, and
 * a session's MCP-Protocol-Version header must be the version it negotiated.
 */
import { expect } from 'chai';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { postFrom } from '../helpers/from-address.js';
import { initializeSession, type LegacySessionClient } from '../helpers/legacy-http.js';
import { postRaw } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } },
};

describe('2025-11-25 sessions, bounded', function () {
  this.timeout(30_000);
  let server: RunningServer;
  const streams: AbortController[] = [];

  before(async () => {
    const fixtures = conformanceFixtures();
    server = await startTestServer({
      tools: fixtures.tools,
      prompts: fixtures.prompts,
      resources: fixtures.resources,
      legacy: { maxSessionsPerClient: 3, maxSubscriptionsPerSession: 2 },
    });
  });
  afterEach(() => {
    for (const controller of streams.splice(0)) controller.abort();
  });
  after(() => server.close());

  const session = async (capabilities: Record<string, unknown> = { elicitation: {} }) =>
    (await initializeSession(server.url, capabilities)).client;
  /** Keeps a session busy: its GET stream is open. */
  const busy = async (client: LegacySessionClient) => {
    const controller = new AbortController();
    streams.push(controller);
    const get = await fetch(server.url, { headers: client.headers, signal: controller.signal });
    expect(get.status).to.equal(200);
  };

  it('keeps only the capabilities it asks about: a padded initialize gets a short session id that works', async () => {
    const padded = {
      elicitation: { form: {}, padding: 'x'.repeat(100_000) },
      experimental: { junk: 'y'.repeat(800_000) },
    };
    const { response, client } = await initializeSession(server.url, padded);
    expect(response.status).to.equal(200);
    expect(client.sessionId.length).to.be.below(1024);
    // The session still knows the client takes forms: the elicitation fixture asks one.
    const stream = await client.stream('tools/call', { name: 'test_elicitation', arguments: { message: 'hi' } });
    const question = await stream.next();
    stream.abort();
    expect(question.method, JSON.stringify(question)).to.equal('elicitation/create');
  });

  it("refuses a caller's session past its busy sessions with 429 and -31000; an idle one makes room", async () => {
    for (let i = 0; i < 3; i++) await busy(await session());
    const refused = await postRaw(server.url, JSON.stringify(INITIALIZE), {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    });
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('mcp-session-id')).to.equal(null);
    expect(refused.body.error.code).to.equal(-31000);
    expect(refused.body.error.data).to.deep.equal({ reason: 'legacy_sessions', limit: 3 });
    const elsewhere = await postFrom('127.0.0.7', server.url, INITIALIZE, {
      accept: 'application/json, text/event-stream',
    });
    expect(elsewhere.status).to.equal(200);
    for (const controller of streams.splice(0)) controller.abort();
    // Idle sessions give way: the caller opens new ones once its streams are closed.
    const deadline = Date.now() + 10_000;
    let again = await initializeSession(server.url);
    while (again.response.status !== 200 && Date.now() < deadline) again = await initializeSession(server.url);
    expect(again.response.status).to.equal(200);
  });

  it('subscribes only to resources the server serves, and a bounded number of them', async () => {
    const client = await session();
    const unknown = await client.request('resources/subscribe', { uri: 'file:///etc/passwd' });
    expect(unknown.body.error.code).to.equal(-32602);
    expect((await client.request('resources/subscribe', { uri: 'test://static-text' })).body.result).to.deep.equal({});
    expect((await client.request('resources/subscribe', { uri: 'test://static-binary' })).body.result).to.deep.equal(
      {},
    );
    const third = await client.request('resources/subscribe', { uri: 'test://template/1/data' });
    expect(third.body.error.code, third.text).to.equal(-31000);
    expect(third.body.error.data).to.deep.equal({ reason: 'resource_subscriptions', limit: 2 });
    await client.request('resources/unsubscribe', { uri: 'test://static-binary' });
    expect((await client.request('resources/subscribe', { uri: 'test://template/1/data' })).body.result).to.deep.equal(
      {},
    );
  });

  it('opens no session for an initialize sent as a notification', async () => {
    const { id: _id, ...notification } = INITIALIZE;
    const response = await postRaw(server.url, JSON.stringify(notification), {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    });
    expect(response.status).to.equal(202);
    expect(response.headers.get('mcp-session-id')).to.equal(null);
  });

  it("refuses a served but different MCP-Protocol-Version in a session (400): it must be the session's", async () => {
    const { client } = await initializeSession(server.url, { elicitation: {} }, '2025-06-18');
    expect((await client.request('tools/list')).status).to.equal(200);
    const mismatched = await postRaw(
      server.url,
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
      { ...client.headers, 'mcp-protocol-version': '2025-11-25' },
    );
    expect(mismatched.status).to.equal(400);
    expect(mismatched.body.error.code).to.equal(-32600);
  });
});
