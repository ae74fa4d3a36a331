import { expect } from 'chai';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { countingRelease } from '../helpers/counting-release.js';
import { initializeSession, sessionClient, type LegacySessionClient } from '../helpers/legacy-http.js';
import { callTool, postRaw } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const RELEASE_ARGS = { service: 'billing', version: '2.4.0' };

describe('Streamable HTTP endpoint: 2025-11-25 sessions on the same endpoint', () => {
  let server: RunningServer;
  const release = countingRelease();
  before(async () => {
    const fixtures = conformanceFixtures();
    server = await startTestServer({
      tools: [release.tool, ...fixtures.tools],
      prompts: fixtures.prompts,
      resources: fixtures.resources,
      legacy: { answerTimeoutMs: 2_000 },
    });
  });
  after(() => server.close());

  async function session(capabilities: Record<string, unknown> = { elicitation: {} }): Promise<LegacySessionClient> {
    return (await initializeSession(server.url, capabilities)).client;
  }

  describe('initialize', () => {
    it('negotiates the version, opens a session with a visible-ASCII id and answers the 2025-11-25 shape', async () => {
      const { response } = await initializeSession(server.url);
      expect(response.status).to.equal(200);
      expect(response.headers.get('mcp-session-id')).to.match(/^[\x21-\x7e]+$/);
      const { result } = response.body;
      expect(result.protocolVersion).to.equal('2025-11-25');
      expect(result.serverInfo).to.include({ name: 'baton' });
      expect(result.capabilities).to.include.keys('tools', 'prompts', 'logging', 'completions');
      expect(result.capabilities.resources).to.deep.equal({ subscribe: true });
      expect(result.capabilities).not.to.have.property('extensions');
      expect(result).not.to.have.property('resultType');
    });

    it('echoes 2025-06-18 and answers an unknown version with the latest it serves', async () => {
      expect((await initializeSession(server.url, {}, '2025-06-18')).response.body.result.protocolVersion).to.equal(
        '2025-06-18',
      );
      expect((await initializeSession(server.url, {}, '2024-01-01')).response.body.result.protocolVersion).to.equal(
        '2025-11-25',
      );
    });

    it('refuses an initialize without capabilities or clientInfo with -32602 and no session', async () => {
      const response = await postRaw(
        server.url,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }),
        { 'content-type': 'application/json' },
      );
      expect(response.status).to.equal(400);
      expect(response.body.error.code).to.equal(-32602);
      expect(response.headers.get('mcp-session-id')).to.equal(null);
    });
  });

  describe('requests in a session', () => {
    it('answers ping, tools/list without resultType or caching hints, and -32601 for 2026-07-28-only methods', async () => {
      const client = await session();
      const ping = await client.request('ping');
      expect(ping.status).to.equal(200);
      expect(ping.body.result).to.deep.equal({});
      const list = await client.request('tools/list');
      expect(list.body.result.tools.map((t: { name: string }) => t.name)).to.include('release');
      expect(list.body.result).not.to.have.any.keys('resultType', 'ttlMs', 'cacheScope', '_meta');
      for (const method of ['server/discover', 'subscriptions/listen']) {
        expect((await client.request(method)).body.error.code, method).to.equal(-32601);
      }
    });

    it('accepts logging/setLevel with a known level and refuses an unknown one with -32602', async () => {
      const client = await session();
      expect((await client.request('logging/setLevel', { level: 'warning' })).body.result).to.deep.equal({});
      expect((await client.request('logging/setLevel', { level: 'loud' })).body.error.code).to.equal(-32602);
    });

    it('sends log messages at or above the chosen level on the call stream', async () => {
      const client = await session();
      await client.request('logging/setLevel', { level: 'debug' });
      const stream = await client.stream('tools/call', { name: 'test_tool_with_logging', arguments: {} });
      const messages = [];
      for (let message = await stream.next(); message; message = await stream.next()) messages.push(message);
      const logs = messages.filter((m) => m.method === 'notifications/message');
      expect(logs.map((m) => m.params.data)).to.deep.equal([
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
      ]);
      expect(messages.at(-1).result.content[0].text).to.be.a('string');

      await client.request('logging/setLevel', { level: 'error' });
      const quiet = await client.stream('tools/call', { name: 'test_tool_with_logging', arguments: {} });
      expect((await quiet.next()).result).to.have.property('content');
    });

    it('accepts notifications with 202', async () => {
      const client = await session();
      const response = await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(response.status).to.equal(202);
    });

    it('refuses a second initialize in a session', async () => {
      const client = await session();
      const response = await client.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'again', version: '1' },
      });
      expect(response.body.error.code).to.equal(-32600);
    });
  });

  describe('session rules', () => {
    it('answers 404 to an unknown, tampered or ended session, and DELETE ends one', async () => {
      const client = await session();
      const tampered = sessionClient(server.url, `${client.sessionId.slice(0, -2)}AA`);
      expect((await tampered.request('ping')).status).to.equal(404);
      expect((await sessionClient(server.url, 'no-such-session').request('ping')).status).to.equal(404);

      const deleted = await fetch(server.url, { method: 'DELETE', headers: client.headers });
      expect(deleted.status).to.equal(204);
      expect((await client.request('ping')).status).to.equal(404);
      expect((await fetch(server.url, { method: 'DELETE', headers: client.headers })).status).to.equal(404);
    });

    it('answers 400 to an MCP-Protocol-Version it does not serve in a session', async () => {
      const client = await session();
      const response = await postRaw(server.url, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' }), {
        ...client.headers,
        'mcp-protocol-version': '1999-01-01',
      });
      expect(response.status).to.equal(400);
      expect(response.body.id).to.equal(5);
    });

    it('leaves 2026-07-28 requests as they were: no session header needed, GET and DELETE without a session are 405', async () => {
      const result = await callTool(server.url, 'test_simple_text', {});
      expect(result.status).to.equal(200);
      expect(result.body.result.resultType).to.equal('complete');
      expect(result.headers.get('mcp-session-id')).to.equal(null);
      for (const method of ['GET', 'DELETE']) expect((await fetch(server.url, { method })).status).to.equal(405);
      const noMeta = await postRaw(server.url, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }), {
        'content-type': 'application/json',
      });
      expect(noMeta.status).to.equal(400);
      expect(noMeta.body.error.code).to.equal(-32602);
    });

    it('answers 400 to a response nobody waits for', async () => {
      const client = await session();
      const response = await client.answer('baton-unknown', { action: 'accept', content: {} });
      expect(response.status).to.equal(400);
    });
  });

  describe('GET stream and resource subscriptions', () => {
    it('delivers notifications/resources/updated for subscribed URIs on the session GET stream; one stream per session', async () => {
      const client = await session();
      const controller = new AbortController();
      const get = await fetch(server.url, { headers: client.headers, signal: controller.signal });
      expect(get.status).to.equal(200);
      expect(get.headers.get('content-type')).to.include('text/event-stream');
      const second = await fetch(server.url, { headers: client.headers });
      expect(second.status).to.equal(409);

      expect((await client.request('resources/subscribe', { uri: 'test://static-text' })).body.result).to.deep.equal(
        {},
      );
      await client.request('resources/subscribe', { uri: 'test://static-binary' });
      await client.request('resources/unsubscribe', { uri: 'test://static-binary' });
      server.baton.legacy!.resourceUpdated('test://static-binary');
      server.baton.legacy!.resourceUpdated('test://static-text');

      const reader = get.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (!text.includes('resources/updated')) text += (await reader.read()).value ?? '';
      // Ending the session ends its stream.
      expect((await fetch(server.url, { method: 'DELETE', headers: client.headers })).status).to.equal(204);
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
      controller.abort();
      const events = text.split('\n').filter((line) => line.startsWith('data:'));
      expect(events.map((line) => JSON.parse(line.slice(5)).params.uri)).to.deep.equal(['test://static-text']);
    });
  });

  describe('questions as server-to-client requests', () => {
    it('asks on the tools/call stream, takes the answers from new POSTs, and finishes on the same stream', async () => {
      const client = await session();
      const before = release.counter.deployments;
      const stream = await client.stream('tools/call', { name: 'release', arguments: RELEASE_ARGS });
      expect(stream.contentType).to.include('text/event-stream');

      const window = await stream.next();
      expect(window.method).to.equal('elicitation/create');
      expect(window.params.requestedSchema.properties).to.have.key('window');
      expect((await client.answer(window.id, { action: 'accept', content: { window: 'tonight' } })).status).to.equal(
        202,
      );

      const confirm = await stream.next();
      expect(confirm.params.requestedSchema.properties).to.have.key('confirm');
      await client.answer(confirm.id, { action: 'accept', content: { confirm: true } });

      const done = await stream.next();
      expect(done.result.structuredContent).to.include({ released: true, window: 'tonight' });
      expect(done.result).not.to.have.property('resultType');
      expect(release.counter.deployments).to.equal(before + 1);
    });

    it('re-asks an answer that breaks the schema, with the reason, as for inputResponses', async () => {
      const client = await session();
      const stream = await client.stream('tools/call', { name: 'release', arguments: RELEASE_ARGS });
      const first = await stream.next();
      await client.answer(first.id, { action: 'accept', content: { window: 'someday' } });
      const again = await stream.next();
      expect(again.method).to.equal('elicitation/create');
      expect(again.id).not.to.equal(first.id);
      expect(again.params.message).to.match(/not accepted/);
      await client.answer(again.id, { action: 'decline' });
      const done = await stream.next();
      expect(done.result.content[0].text).to.match(/cancelled/i);
    });

    it('treats an error response to a form question as cancel', async () => {
      const client = await session();
      const stream = await client.stream('tools/call', { name: 'release', arguments: RELEASE_ARGS });
      const first = await stream.next();
      await client.answer(first.id, { code: -32603, message: 'the user closed the dialog' }, true);
      expect((await stream.next()).result.content[0].text).to.match(/cancelled/i);
    });

    it('fails the call with a tool error when no answer comes within the answer timeout', async () => {
      const client = await session();
      const stream = await client.stream('tools/call', { name: 'release', arguments: RELEASE_ARGS });
      const asked = await stream.next();
      const cancelled = await stream.next();
      expect(cancelled).to.deep.include({ method: 'notifications/cancelled' });
      expect(cancelled.params.requestId).to.equal(asked.id);
      const done = await stream.next();
      expect(done.result.isError).to.equal(true);
      expect((await client.answer(asked.id, { action: 'accept', content: { window: 'now' } })).status).to.equal(400);
    });

    it('gives -32021 naming the capability to a session that declared no elicitation, before asking', async () => {
      const client = await session({});
      const response = await client.request('tools/call', { name: 'release', arguments: RELEASE_ARGS });
      expect(response.body.error.code).to.equal(-32021);
      expect(response.body.error.data.requiredCapabilities).to.have.property('elicitation');
      expect(response.body.error.message).to.include('elicitation.form');
    });

    it('cancels the work when the client goes away mid-question: the effect never runs', async () => {
      const client = await session();
      const before = release.counter.deployments;
      const stream = await client.stream('tools/call', { name: 'release', arguments: RELEASE_ARGS });
      const window = await stream.next();
      await client.answer(window.id, { action: 'accept', content: { window: 'now' } });
      const confirm = await stream.next();
      stream.abort();
      // The positive signal: the server saw the close, and the call ended (the session is idle:
      // nothing in flight, no question waiting). Only then can nothing deploy any more.
      const live = server.baton.legacy!.session(client.sessionId, {
        id: 'anonymous',
        authenticated: false,
        client: '127.0.0.1',
      })!;
      const deadline = Date.now() + 10_000;
      while (!live.idle && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(live.idle, 'the call ended').to.equal(true);
      expect((await client.answer(confirm.id, { action: 'accept', content: { confirm: true } })).status).to.equal(400);
      expect(release.counter.deployments).to.equal(before);
    });

    it('cancels the work on notifications/cancelled for the call', async () => {
      const client = await session();
      const stream = await client.stream('tools/call', { name: 'release', arguments: RELEASE_ARGS });
      expect((await stream.next()).method).to.equal('elicitation/create');
      const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: stream.id } };
      expect((await client.post(cancel)).status).to.equal(202);
      expect(await stream.next()).to.equal(undefined);
    });
  });
});
