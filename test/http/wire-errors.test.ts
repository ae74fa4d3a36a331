import { expect } from 'chai';
import { postRaw, requestMeta, rpc, standardHeaders, callTool } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';

describe('Streamable HTTP endpoint: the validation ladder', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const discover = (id: number | string = 7) => ({
    jsonrpc: '2.0',
    id,
    method: 'server/discover',
    params: { _meta: requestMeta() },
  });

  function expectError(response: { status: number; body: any }, status: number, code: number, id?: unknown) {
    expect(response.status, JSON.stringify(response.body)).to.equal(status);
    expect(response.body.jsonrpc).to.equal('2.0');
    expect(response.body.error.code).to.equal(code);
    expect(response.body.error.message).to.be.a('string').and.not.empty;
    if (id === undefined) expect(response.body).not.to.have.property('id');
    else expect(response.body.id).to.equal(id);
  }

  describe('transport', () => {
    it('answers GET and DELETE with 405 and Allow: POST', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(server.url, { method });
        expect(response.status).to.equal(405);
        expect(response.headers.get('allow')).to.equal('POST');
        expectError({ status: response.status, body: await response.json() }, 405, -32600);
      }
    });

    it('answers HEAD with the 405 headers of a GET, Content-Length included, and no body', async () => {
      const get = await fetch(server.url);
      const head = await fetch(server.url, { method: 'HEAD' });
      expect(head.status).to.equal(405);
      expect(head.headers.get('content-length')).to.equal(String((await get.arrayBuffer()).byteLength));
      expect(head.headers.get('content-type')).to.equal(get.headers.get('content-type'));
      expect(await head.text()).to.equal('');
    });

    it('answers a body that is not JSON with -32700, HTTP 400 and no id', async () => {
      expectError(await postRaw(server.url, '{"jsonrpc": "2.0", "id": 1,', standardHeaders({})), 400, -32700);
    });

    it('answers a notification with 202 and an empty body', async () => {
      const message = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
      const response = await postRaw(server.url, JSON.stringify(message), standardHeaders({}));
      expect(response.status).to.equal(202);
      expect(response.text).to.equal('');
    });

    it('refuses a body over the size limit with 413', async () => {
      const big = JSON.stringify({ ...discover(), padding: 'x'.repeat(1024 * 1024 + 10) });
      const response = await postRaw(server.url, big, standardHeaders(discover()));
      expect(response.status).to.equal(413);
      expect(response.body.error.code).to.equal(-32600);
    });

    it('names the instance that served every response', async () => {
      const response = await rpc(server.url, 'server/discover');
      expect(response.headers.get('baton-instance')).to.equal(server.baton.instanceId);
    });

    it('serves /healthz', async () => {
      const response = await fetch(`${server.origin}/healthz`);
      expect(response.status).to.equal(200);
      expect((await response.json()).status).to.equal('ok');
    });
  });

  describe('-32600 invalid request', () => {
    const cases: Array<[string, unknown]> = [
      ['a batch', [discover(1), discover(2)]],
      ['a response', { jsonrpc: '2.0', id: 1, result: {} }],
      ['a wrong jsonrpc version', { ...discover(), jsonrpc: '1.0' }],
      ['a missing method', { jsonrpc: '2.0', id: 3, params: {} }],
      ['params that are an array', { ...discover(), params: [] }],
      ['a string body', 'hello'],
    ];
    for (const [label, body] of cases) {
      it(`refuses ${label} with HTTP 400`, async () => {
        const response = await postRaw(server.url, JSON.stringify(body), standardHeaders(discover()));
        expect(response.status).to.equal(400);
        expect(response.body.error.code).to.equal(-32600);
      });
    }

    it('refuses a null id and a fractional id', async () => {
      for (const id of [null, 1.5]) {
        const response = await postRaw(server.url, JSON.stringify({ ...discover(), id }), standardHeaders(discover()));
        expect(response.status).to.equal(400);
        expect(response.body.error.code).to.equal(-32600);
      }
    });

    it('echoes a readable id on an invalid request', async () => {
      const response = await postRaw(
        server.url,
        JSON.stringify({ jsonrpc: '2.0', id: 'abc', method: 5 }),
        standardHeaders(discover()),
      );
      expectError(response, 400, -32600, 'abc');
    });
  });

  describe('-32602 missing _meta (HTTP 400)', () => {
    const metas: Array<[string, Record<string, unknown> | undefined]> = [
      ['no _meta', undefined],
      ['no protocolVersion', { 'io.modelcontextprotocol/clientCapabilities': {} }],
      ['no clientCapabilities', { 'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION }],
      [
        'clientCapabilities that are not an object',
        {
          'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
          'io.modelcontextprotocol/clientCapabilities': [],
        },
      ],
    ];
    for (const [label, meta] of metas) {
      it(`refuses a request with ${label}`, async () => {
        const message = { jsonrpc: '2.0', id: 41, method: 'server/discover', params: meta ? { _meta: meta } : {} };
        expectError(await postRaw(server.url, JSON.stringify(message), standardHeaders(message)), 400, -32602, 41);
      });
    }

    it('accepts a request without clientInfo', async () => {
      const message = {
        jsonrpc: '2.0',
        id: 42,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      };
      const response = await postRaw(server.url, JSON.stringify(message), standardHeaders(message));
      expect(response.status).to.equal(200);
      expect(response.body.result.resultType).to.equal('complete');
    });
  });

  describe('-32020 header mismatch (HTTP 400)', () => {
    it('refuses a missing MCP-Protocol-Version', async () => {
      expectError(
        await rpc(server.url, 'server/discover', {}, { id: 1, headers: { 'mcp-protocol-version': undefined } }),
        400,
        -32020,
        1,
      );
    });
    it('refuses an MCP-Protocol-Version that differs from _meta', async () => {
      expectError(
        await rpc(server.url, 'server/discover', {}, { id: 2, headers: { 'mcp-protocol-version': '2025-11-25' } }),
        400,
        -32020,
        2,
      );
    });
    it('refuses a missing or different Mcp-Method (values are case-sensitive)', async () => {
      expectError(
        await rpc(server.url, 'tools/list', {}, { id: 3, headers: { 'mcp-method': undefined } }),
        400,
        -32020,
        3,
      );
      expectError(
        await rpc(server.url, 'tools/list', {}, { id: 4, headers: { 'mcp-method': 'TOOLS/LIST' } }),
        400,
        -32020,
        4,
      );
    });
    it('refuses a missing or different Mcp-Name on tools/call', async () => {
      const args = { service: 'a', version: '1' };
      expectError(
        await callTool(server.url, 'release', args, {}, { id: 5, headers: { 'mcp-name': undefined } }),
        400,
        -32020,
        5,
      );
      expectError(
        await callTool(server.url, 'release', args, {}, { id: 6, headers: { 'mcp-name': 'provision-database' } }),
        400,
        -32020,
        6,
      );
    });
    it('decodes the =?base64?…?= form of Mcp-Name before comparing', async () => {
      const encoded = `=?base64?${Buffer.from('release').toString('base64')}?=`;
      const ok = await callTool(
        server.url,
        'release',
        { service: 'a', version: '1' },
        {},
        { headers: { 'mcp-name': encoded } },
      );
      expect(ok.status).to.equal(200);
      expect(ok.body.result.resultType).to.equal('input_required');
      const wrong = `=?base64?${Buffer.from('releasex').toString('base64')}?=`;
      expectError(
        await callTool(server.url, 'release', {}, {}, { id: 8, headers: { 'mcp-name': wrong } }),
        400,
        -32020,
        8,
      );
      expectError(
        await callTool(server.url, 'release', {}, {}, { id: 9, headers: { 'mcp-name': '=?base64?%%%?=' } }),
        400,
        -32020,
        9,
      );
    });
    it('checks _meta before the headers, and the headers before the version', async () => {
      // Body lacks the version but the header has one: -32602 (conformance server-stateless).
      const message = {
        jsonrpc: '2.0',
        id: 10,
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } },
      };
      expectError(await postRaw(server.url, JSON.stringify(message), standardHeaders(message)), 400, -32602, 10);
      // Body says v999, header says 2026-07-28: the mismatch wins over the unsupported version.
      const v999 = {
        ...discover(11),
        params: { _meta: { ...requestMeta(), 'io.modelcontextprotocol/protocolVersion': 'v999' } },
      };
      expectError(await postRaw(server.url, JSON.stringify(v999), standardHeaders(v999)), 400, -32020, 11);
    });
  });

  describe('-32022 unsupported protocol version (HTTP 400)', () => {
    it('lists the supported versions and echoes the requested one', async () => {
      const message = {
        ...discover(12),
        params: { _meta: { ...requestMeta(), 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' } },
      };
      const response = await postRaw(server.url, JSON.stringify(message), {
        ...standardHeaders(message),
        'mcp-protocol-version': 'v999.0.0',
      });
      expectError(response, 400, -32022, 12);
      expect(response.body.error.data).to.deep.equal({ supported: ['2026-07-28'], requested: 'v999.0.0' });
    });
  });

  describe('a 2026-07-28-only server (legacy: false) and a 2025-era initialize', () => {
    let modernOnly: RunningServer;
    before(async () => {
      modernOnly = await startTestServer({ legacy: false });
    });
    after(() => modernOnly.close());

    it('answers a legacy initialize (no _meta) the modern way, naming the supported versions', async () => {
      const message = {
        jsonrpc: '2.0',
        id: 13,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
      };
      const response = await postRaw(modernOnly.url, JSON.stringify(message), { 'content-type': 'application/json' });
      expectError(response, 400, -32022, 13);
      expect(response.body.error.data).to.deep.equal({ supported: ['2026-07-28'], requested: '2025-06-18' });
    });

    it('answers a legacy initialize that names no version with an empty requested string', async () => {
      const message = { jsonrpc: '2.0', id: 131, method: 'initialize', params: {} };
      const response = await postRaw(modernOnly.url, JSON.stringify(message), { 'content-type': 'application/json' });
      expectError(response, 400, -32022, 131);
      expect(response.body.error.data).to.deep.equal({ supported: ['2026-07-28'], requested: '' });
    });
  });

  describe('-32602 for a _meta logLevel that is not a logging level', () => {
    it('refuses an unknown level with HTTP 400 and accepts a known one', async () => {
      const withLevel = (level: unknown) => ({
        jsonrpc: '2.0',
        id: 132,
        method: 'server/discover',
        params: { _meta: { ...requestMeta(), 'io.modelcontextprotocol/logLevel': level } },
      });
      for (const level of ['verbose', 'INFO', 3]) {
        const message = withLevel(level);
        expectError(await postRaw(server.url, JSON.stringify(message), standardHeaders(message)), 400, -32602, 132);
      }
      const ok = withLevel('warning');
      const response = await postRaw(server.url, JSON.stringify(ok), standardHeaders(ok));
      expect(response.status).to.equal(200);
      expect(response.body.result.resultType).to.equal('complete');
    });
  });

  describe('-32601 method not found (HTTP 404)', () => {
    for (const method of [
      'initialize',
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'resources/unsubscribe',
      'unknown/method',
      'prompts/list',
    ]) {
      it(`answers ${method} with 404`, async () => {
        expectError(await rpc(server.url, method, {}, { id: 14 }), 404, -32601, 14);
      });
    }

    it('names the served revisions when a modern client sends initialize', async () => {
      const response = await rpc(server.url, 'initialize', {}, { id: 141 });
      expectError(response, 404, -32601, 141);
      expect(response.body.error.message).to.match(/2026-07-28.*server\/discover/);
      expect(response.body.error.data).to.deep.equal({ supported: ['2026-07-28'] });
    });
  });

  describe('errors from tools/call', () => {
    it('answers an unknown tool with -32602 (HTTP 200)', async () => {
      expectError(await callTool(server.url, 'no-such-tool', {}, {}, { id: 15 }), 200, -32602, 15);
    });
    it('answers a call without a name, or with non-object arguments, with -32602', async () => {
      expectError(await rpc(server.url, 'tools/call', { arguments: {} }, { id: 16 }), 200, -32602, 16);
      expectError(
        await rpc(server.url, 'tools/call', { name: 'release', arguments: [1] }, { id: 17 }),
        200,
        -32602,
        17,
      );
    });
    it('answers arguments that break the input schema with a tool error the model can read', async () => {
      const response = await callTool(server.url, 'release', { service: '' }, {}, { id: 18 });
      expect(response.status).to.equal(200);
      expect(response.body.result.isError).to.equal(true);
      expect(response.body.result.content[0].type).to.equal('text');
    });
    it('answers -32021 with requiredCapabilities when the client cannot be asked', async () => {
      const response = await callTool(
        server.url,
        'release',
        { service: 'a', version: '1' },
        {},
        { id: 19, capabilities: {} },
      );
      expectError(response, 400, -32021, 19);
      expect(response.body.error.data.requiredCapabilities).to.have.property('elicitation').that.is.an('object');
    });
    it('answers -32021 naming elicitation.url when a URL question meets a form-only client', async () => {
      const response = await callTool(
        server.url,
        'connect-payments',
        { provider: 'stripe' },
        {},
        { id: 20, capabilities: { elicitation: {} } },
      );
      expectError(response, 400, -32021, 20);
      expect(response.body.error.data.requiredCapabilities.elicitation).to.have.property('url');
    });
    it('answers a malformed inputResponses map with -32602', async () => {
      const first = await callTool(server.url, 'release', { service: 'a', version: '1' });
      const { requestState } = first.body.result;
      expectError(
        await callTool(
          server.url,
          'release',
          { service: 'a', version: '1' },
          { requestState, inputResponses: 'yes' },
          { id: 21 },
        ),
        200,
        -32602,
        21,
      );
      expectError(
        await callTool(
          server.url,
          'release',
          { service: 'a', version: '1' },
          { requestState, inputResponses: { window: { action: 'maybe' } } },
          { id: 22 },
        ),
        200,
        -32602,
        22,
      );
    });
  });

  describe('DNS-rebinding protection', () => {
    it('refuses a foreign Origin with 403', async () => {
      const response = await rpc(server.url, 'server/discover', {}, { headers: { origin: 'http://evil.example.com' } });
      expect(response.status).to.equal(403);
    });
    it('refuses a foreign Host when bound to loopback', async () => {
      const { request } = await import('node:http');
      // No Origin header: the Host check alone must refuse it.
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(server.url);
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: { host: 'evil.example.com', ...standardHeaders(discover()) },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, body: text }));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(discover()));
      });
      expect(status).to.equal(403);
      expect(body).to.match(/does not answer for that Host/);
    });
    it('accepts a same-host loopback Origin', async () => {
      const response = await rpc(server.url, 'server/discover', {}, { headers: { origin: server.origin } });
      expect(response.status).to.equal(200);
    });
  });
});
