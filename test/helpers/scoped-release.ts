/**
 * Baton serving `release` behind a real issuer, with the tool needing `deploy:write`, and an
 * official client that answers its questions (a window, then confirm): what the OAuth tests drive
 * with one way or another of getting a token.
 */
import { Client, StreamableHTTPClientTransport, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { createServer } from '../../server/create-server.js';
import { defineTool, silentLogger } from '../../server/engine/index.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import type { countingRelease } from './counting-release.js';
import { freePort } from './spawn-baton.js';
import { closeServer, testKeyRing } from './test-server.js';

export interface ScopedRelease {
  url: string;
  stop(): Promise<void>;
}

/** Starts Baton on a free loopback port, trusting `issuer` for tokens whose audience is its URL. */
export async function serveScopedRelease(
  release: ReturnType<typeof countingRelease>,
  issuer: string,
): Promise<ScopedRelease> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const baton = createServer({
    keyRing: testKeyRing(),
    logger: silentLogger,
    tools: [defineTool({ ...release.tool, scopes: ['deploy:write'] })],
    oauth: { issuers: [issuer], resource: url },
  });
  const { server } = await baton.listen(port, '127.0.0.1');
  return {
    url,
    stop: async () => {
      await closeServer(server);
      await baton.close();
    },
  };
}

/** An official client pinned to this revision that accepts every question of `release`. */
export function answeringClient(name: string, url: string, authProvider: OAuthClientProvider) {
  const client = new Client(
    { name, version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
      inputRequired: { autoFulfill: true, maxRounds: 5 },
    },
  );
  client.setRequestHandler('elicitation/create', async ({ params }) => {
    const fields = params.mode === 'url' ? [] : Object.keys(params.requestedSchema.properties);
    const content: Record<string, string | boolean> = fields.includes('window')
      ? { window: 'tonight' }
      : { confirm: true };
    return { action: 'accept' as const, content };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider });
  return { client, transport };
}
