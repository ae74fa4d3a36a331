/**
 * Live tools (`baton dev`): `tools.listChanged` is advertised, and a subscriptions/listen stream
 * that asked for `toolsListChanged` hears `notifications/tools/list_changed` after each accepted
 * change; a list with problems is refused and the old one kept.
 */
import { expect } from 'chai';
import { ConfigurationError, LiveToolRegistry } from '../../server/engine/index.js';
import { releaseTool } from '../../machines/examples/release.js';
import { provisionDatabaseTool } from '../../machines/examples/provision-database.js';
import { requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { readSseMessages } from '../helpers/sse-events.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

function rpc(id: number, method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: requestMeta() } };
}

async function post(url: string, message: ReturnType<typeof rpc>, signal?: AbortSignal) {
  return fetch(url, {
    method: 'POST',
    headers: standardHeaders(message),
    body: JSON.stringify(message),
    ...(signal ? { signal } : {}),
  });
}

describe('tools/list_changed with live tools', () => {
  let server: RunningServer;
  let registry: LiveToolRegistry;
  before(async () => {
    server = await startTestServer({ tools: [releaseTool], liveTools: true });
    registry = server.baton.registry as LiveToolRegistry;
  });
  after(() => server.close());

  it('advertises tools.listChanged in server/discover', async () => {
    const response = await post(server.url, rpc(1, 'server/discover'));
    const body = (await response.json()) as any;
    expect(body.result.capabilities.tools).to.deep.equal({ listChanged: true });
  });

  it('streams notifications/tools/list_changed to a listener after each change, and lists the new tools', async () => {
    const abort = new AbortController();
    const response = await post(
      server.url,
      rpc(2, 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
      abort.signal,
    );
    expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
    const messages = await readSseMessages(response, 2, (message) => {
      if (message.method === 'notifications/subscriptions/acknowledged')
        registry.replace([releaseTool, provisionDatabaseTool]);
    });
    abort.abort();
    expect(messages[0].params).to.deep.equal({
      _meta: { [SUBSCRIPTION_ID]: 2 },
      notifications: { toolsListChanged: true },
    });
    expect(messages[1]).to.deep.equal({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [SUBSCRIPTION_ID]: 2 } },
    });
    const list = (await (await post(server.url, rpc(3, 'tools/list'))).json()) as any;
    expect(list.result.tools.map((tool: { name: string }) => tool.name)).to.deep.equal([
      'provision-database',
      'release',
    ]);
  });

  it('refuses a list with problems and keeps serving the old one', () => {
    expect(() => registry.replace([releaseTool, releaseTool])).to.throw(ConfigurationError);
    expect(registry.list().map((tool) => tool.name)).to.deep.equal(['provision-database', 'release']);
  });
});

describe('tools/list_changed with a fixed catalogue', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ tools: [releaseTool] });
  });
  after(() => server.close());

  it('advertises no listChanged', async () => {
    const body = (await (await post(server.url, rpc(1, 'server/discover'))).json()) as any;
    expect(body.result.capabilities.tools).to.deep.equal({});
  });
});
