/**
 * One request envelope (server/simulation/request-envelope.ts) for the in-process server and
 * `baton call`, and the Try it page's wire (try-it-wire.js, browser code kept apart) writing the
 * same one: the page's script runs here in a VM with a fetch that records what it would send.
 */
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { CallClient } from '../../server/cli/call-client.js';
import { META, PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { requestEnvelope, simulate } from '../../server/simulation/index.js';
import { releaseTool } from '../../machines/examples/release.js';

const WIRE_SCRIPT = new URL('../../server/http/assets/try-it-wire.js', import.meta.url);

/** What the page's wire POSTs for `method`: the parsed body and the headers. */
async function browserRequest(method: string, params: Record<string, unknown>) {
  const sent: Array<{ body: any; headers: Record<string, string> }> = [];
  const node = () => ({ append() {}, replaceChildren() {}, removeAttribute() {}, hidden: false });
  const context: Record<string, unknown> = {
    batonTryItForms: { el: node, pretty: (value: unknown) => JSON.stringify(value) },
    fetch: async (_url: string, init: { body: string; headers: Record<string, string> }) => {
      sent.push({ body: JSON.parse(init.body), headers: init.headers });
      return { status: 200, headers: { get: () => 'application/json' }, text: async () => '{}' };
    },
  };
  const wire = runInNewContext(`${readFileSync(WIRE_SCRIPT, 'utf8')}\nbatonTryItWire`, context) as any;
  const connection = wire.connect({ endpoint: '/mcp', task: false, headerParams: [], auth: 'none' }, () => '');
  await connection.post(method, params, 'test');
  return sent[0]!;
}

describe('the request envelope', () => {
  const params = { name: 'greet', arguments: { name: 'Ada' } };
  const client = { capabilities: { elicitation: { form: {} } }, info: { name: 'tester', version: '1.0.0' } };

  it('is JSON-RPC 2.0 with the protocol version, capabilities and client in _meta', () => {
    expect(requestEnvelope(7, 'tools/call', params, client, { progressToken: 'p' })).to.deep.equal({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        ...params,
        _meta: {
          [META.protocolVersion]: PROTOCOL_VERSION,
          [META.clientCapabilities]: client.capabilities,
          [META.clientInfo]: client.info,
          progressToken: 'p',
        },
      },
    });
  });

  it("is what the Try it page's wire sends, but for the page's own client name and capabilities", async () => {
    const { body, headers } = await browserRequest('tools/call', params);
    const meta = body.params._meta;
    const expected = requestEnvelope(1, 'tools/call', params, {
      capabilities: meta[META.clientCapabilities],
      info: meta[META.clientInfo],
    });
    expect(body).to.deep.equal({
      ...expected,
      params: { ...expected.params, _meta: { ...(expected.params._meta as object), progressToken: 'try-it-1' } },
    });
    expect(meta[META.clientInfo].name).to.equal('baton-docs-try-it');
    expect(headers['MCP-Protocol-Version']).to.equal(PROTOCOL_VERSION);
  });

  it('is what `baton call` sends over HTTP', async () => {
    let body: any;
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (_url: string, init: { body: string }) => {
      body = JSON.parse(init.body);
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }), {
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    try {
      await new CallClient({ url: 'http://127.0.0.1:1/mcp' }).request('tools/list');
    } finally {
      globalThis.fetch = realFetch;
    }
    const meta = body.params._meta;
    expect(body).to.deep.equal(
      requestEnvelope(
        1,
        'tools/list',
        {},
        { capabilities: meta[META.clientCapabilities], info: meta[META.clientInfo] },
      ),
    );
    expect(meta[META.clientInfo].name).to.equal('baton-call');
  });

  it('is what the in-process server of the docs and the test kit is sent', async () => {
    const run = await simulate({ kind: 'tool', definition: releaseTool });
    expect(run.outcome).to.equal('complete');
    const { request } = run.rounds[0]!;
    const meta = request.params._meta as Record<string, any>;
    expect(request).to.deep.equal(
      requestEnvelope(
        1,
        request.method,
        { ...request.params, _meta: undefined },
        {
          capabilities: meta[META.clientCapabilities],
          info: meta[META.clientInfo],
        },
      ),
    );
  });
});
