/**
 * What a real client sees: the official `@modelcontextprotocol/client` drives an in-process Baton
 * server over Streamable HTTP, pinned to 2026-07-28, and lets the SDK loop the input_required
 * rounds itself (it re-sends the original params with `inputResponses` and the echoed
 * `requestState`). The elicitation handler answers from a small table keyed by the field names in
 * each request's `requestedSchema`, so the tests read as "what the user chose".
 */
import { expect } from 'chai';
import {
  Client,
  ProtocolError,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import { createMemoryVault, exampleTools, vaultPageRouter, type ExampleToolOptions } from '../../machines/index.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const FULL_CAPABILITIES: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/** What the user does for a field: give a value, or refuse the whole question. */
const DECLINE = Symbol('decline');
const CANCEL = Symbol('cancel');
type Reply = string | number | boolean | typeof DECLINE | typeof CANCEL;

/** One elicitation the handler saw, with the tools/call round it arrived in (1 = first call). */
interface SeenRequest {
  key: string;
  mode: 'form' | 'url';
  fields: string[];
  round: number;
}

interface Scripted {
  client: Client;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * Maps one elicitation request to an answer: each field of the requested schema takes its reply
 * from `replies`; a DECLINE or CANCEL reply for any field refuses the whole form. A URL request is
 * handed to `onUrl` (which does what the user would do on the page) and then accepted.
 */
async function answer(
  params: ElicitRequest['params'],
  replies: Record<string, Reply>,
  onUrl?: (url: string) => Promise<void>,
): Promise<ElicitResult> {
  if (params.mode === 'url') {
    if (!onUrl) return { action: 'decline' };
    await onUrl(params.url);
    return { action: 'accept' };
  }
  const content: Record<string, string | number | boolean> = {};
  for (const field of Object.keys(params.requestedSchema.properties)) {
    const reply = replies[field];
    if (reply === DECLINE) return { action: 'decline' };
    if (reply === CANCEL) return { action: 'cancel' };
    if (reply === undefined) throw new Error(`the test has no reply for field "${field}"`);
    content[field] = reply;
  }
  return { action: 'accept', content };
}

async function connectClient(
  server: RunningServer,
  options: {
    capabilities?: ClientCapabilities;
    replies?: Record<string, Reply>;
    onUrl?: (url: string) => Promise<void>;
  } = {},
): Promise<Scripted> {
  const capabilities = options.capabilities ?? FULL_CAPABILITIES;
  const client = new Client(
    { name: 'baton-official-client-test', version: '1.0.0' },
    {
      capabilities,
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      // Small on purpose: an endless re-ask would surface as a round-limit error, not a hang.
      inputRequired: { autoFulfill: true, maxRounds: 5 },
    },
  );
  // Count tools/call legs as they leave, so each handler call knows which round it belongs to.
  let round = 0;
  const countingFetch: typeof fetch = (input, init) => {
    if (typeof init?.body === 'string' && JSON.parse(init.body).method === 'tools/call') round += 1;
    return fetch(input, init);
  };
  const seen: SeenRequest[] = [];
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async ({ params }, context) => {
      seen.push({
        // The SDK hands the inputRequests key over as the request id of the synthesized context.
        key: String(context.mcpReq.id),
        mode: params.mode === 'url' ? 'url' : 'form',
        fields: params.mode === 'url' ? [] : Object.keys(params.requestedSchema.properties),
        round,
      });
      return answer(params, options.replies ?? {}, options.onUrl);
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: countingFetch }));
  return { client, seen, close: () => client.close() };
}

function textOf(result: CallToolResult): string {
  return result.content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

async function protocolErrorFrom(promise: Promise<unknown>): Promise<ProtocolError> {
  try {
    await promise;
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(ProtocolError);
    return error as ProtocolError;
  }
  expect.fail('expected the call to fail with a ProtocolError');
}

describe('official client (@modelcontextprotocol/client) against Baton over Streamable HTTP', () => {
  let server: RunningServer;
  // The vault page URL in connect-payments requests must point at the real port, which is only
  // known after listening; exampleTools reads publicUrl when a flow starts, so it is set below.
  const exampleOptions: ExampleToolOptions = { publicUrl: 'http://127.0.0.1:0', vault: createMemoryVault() };
  const clients: Scripted[] = [];

  async function connect(options: Parameters<typeof connectClient>[1] = {}): Promise<Scripted> {
    const scripted = await connectClient(server, options);
    clients.push(scripted);
    return scripted;
  }

  before(async () => {
    server = await startTestServer({
      tools: exampleTools(exampleOptions),
      routers: [vaultPageRouter(exampleOptions.vault)],
    });
    exampleOptions.publicUrl = server.origin;
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((scripted) => scripted.close()));
  });

  after(async () => {
    await server?.close();
  });

  describe('connect', () => {
    it('negotiates 2026-07-28 through server/discover and reads serverInfo and capabilities', async () => {
      const { client } = await connect();
      expect(client.getProtocolEra()).to.equal('modern');
      expect(client.getNegotiatedProtocolVersion()).to.equal('2026-07-28');
      expect(client.getServerVersion()).to.include({ name: 'baton' });
      expect(client.getServerVersion()?.version).to.be.a('string').and.not.empty;
      expect(client.getServerCapabilities()).to.have.property('tools');
    });
  });

  describe('tools/list', () => {
    it('lists the three example tools with object input schemas', async () => {
      const { client } = await connect();
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect([...byName.keys()]).to.have.members(['release', 'provision-database', 'connect-payments']);

      const release = byName.get('release')!;
      expect(release.inputSchema.type).to.equal('object');
      expect(release.inputSchema.properties).to.have.keys('service', 'version');
      expect(release.inputSchema.required).to.have.members(['service', 'version']);
      expect(byName.get('provision-database')!.inputSchema.required).to.deep.equal(['project']);
      expect(byName.get('connect-payments')!.inputSchema.properties).to.have.nested.property('provider.enum');
    });
  });

  describe('release (window -> confirm -> deploy)', () => {
    const args = { service: 'billing', version: '2.4.0' };

    it('completes through every round and returns structured content with released: true', async () => {
      const { client, seen } = await connect({ replies: { window: 'tonight', confirm: true } });
      const result = await client.callTool({ name: 'release', arguments: args });

      expect(result.isError ?? false).to.equal(false);
      expect(result.structuredContent).to.include({ released: true, service: 'billing', window: 'tonight' });
      expect(seen.map((request) => [request.fields, request.round])).to.deep.equal([
        [['window'], 1],
        [['confirm'], 2],
      ]);
    });

    it('declining the first question ends in a clean cancelled result', async () => {
      const { client, seen } = await connect({ replies: { window: DECLINE } });
      const result = await client.callTool({ name: 'release', arguments: args });

      expect(result.isError ?? false).to.equal(false);
      expect(textOf(result)).to.match(/cancelled/i);
      expect(result.structuredContent).to.equal(undefined);
      expect(seen).to.have.length(1);
    });

    it('cancelling at the confirm question ends in a clean cancelled result', async () => {
      const { client, seen } = await connect({ replies: { window: 'now', confirm: CANCEL } });
      const result = await client.callTool({ name: 'release', arguments: args });

      expect(result.isError ?? false).to.equal(false);
      expect(textOf(result)).to.match(/cancelled/i);
      expect(seen.map((request) => request.fields)).to.deep.equal([['window'], ['confirm']]);
    });
  });

  describe('provision-database (size | region in parallel, then confirm)', () => {
    it('asks size and region in the same round, before the confirm, and provisions', async () => {
      const { client, seen } = await connect({
        replies: { size: 'medium', region: 'eu-west', confirm: true },
      });
      const result = await client.callTool({ name: 'provision-database', arguments: { project: 'atlas' } });

      expect(result.isError ?? false).to.equal(false);
      expect(result.structuredContent).to.include({ project: 'atlas', size: 'medium', region: 'eu-west' });

      const firstRound = seen.filter((request) => request.round === 1);
      expect(firstRound.map((request) => request.fields[0])).to.have.members(['size', 'region']);
      expect(new Set(firstRound.map((request) => request.key)).size).to.equal(2);
      const confirmIndex = seen.findIndex((request) => request.fields.includes('confirm'));
      expect(confirmIndex).to.equal(2);
      expect(seen[confirmIndex]!.round).to.equal(2);
    });
  });

  describe('connect-payments (URL-mode elicitation)', () => {
    it('completes after the user stores the secret on the page the URL points to', async () => {
      const secret = 'sk_test_4242abcd';
      const visited: string[] = [];
      const { client, seen } = await connect({
        onUrl: async (url) => {
          visited.push(url);
          const response = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ secret }).toString(),
          });
          expect(response.status, await response.text()).to.equal(200);
        },
      });
      const result = await client.callTool({ name: 'connect-payments', arguments: { provider: 'stripe' } });

      expect(result.isError ?? false).to.equal(false);
      expect(textOf(result)).to.include(secret.slice(-4));
      expect(seen.map((request) => request.mode)).to.deep.equal(['url']);
      expect(new URL(visited[0]!).origin).to.equal(server.origin);
      expect(new URL(visited[0]!).pathname).to.match(/^\/vault\/[0-9a-f-]{36}$/);
    });
  });

  describe('errors', () => {
    it('an unknown tool is a ProtocolError -32602', async () => {
      const { client } = await connect();
      const error = await protocolErrorFrom(client.callTool({ name: 'no-such-tool', arguments: {} }));
      expect(error.code).to.equal(-32602);
    });

    it('a client without the elicitation capability gets -32021 naming elicitation', async () => {
      const { client } = await connect({ capabilities: {} });
      const error = await protocolErrorFrom(
        client.callTool({ name: 'release', arguments: { service: 'billing', version: '2.4.0' } }),
      );
      expect(error.code).to.equal(-32021);
      expect(error.data).to.have.nested.property('requiredCapabilities.elicitation');
    });
  });
});
