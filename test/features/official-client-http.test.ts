/**
 * The shared client cases (client-cases.ts) over Streamable HTTP: the official client's
 * `StreamableHTTPClientTransport` against an in-process Baton server serving what `baton serve
 * --conformance` serves.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMemoryVault, vaultPageRouter, type ExampleToolOptions } from '../../machines/index.js';
import { pageVisitor } from '../../server/http/index.js';
import { examplesCatalogue } from '../../server/cli/served-catalogue.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { startTestServer, testKeyRing, type RunningServer } from '../helpers/test-server.js';
import { clientCases } from './client-cases.js';

describe('official client (@modelcontextprotocol/client) against Baton over Streamable HTTP', () => {
  let server: RunningServer;
  // The vault page URL in connect-payments requests must point at the real port, which is only
  // known after listening; exampleTools reads publicUrl when a flow starts, so it is set below.
  const examples: ExampleToolOptions = { publicUrl: 'http://127.0.0.1:0', vault: createMemoryVault() };

  before(async () => {
    const keyRing = testKeyRing();
    server = await startTestServer({
      ...examplesCatalogue(examples, true),
      keyRing,
      routers: [vaultPageRouter(examples.vault, { keyRing, identify: pageVisitor() })],
    });
    examples.publicUrl = server.origin;
  });

  after(async () => {
    await server?.close();
  });

  const target = {
    transport: async () => new StreamableHTTPClientTransport(new URL(server.url)),
    pageOrigin: () => server.origin,
  };
  describe(PROTOCOL_VERSION, () => clientCases(target, 'modern'));
  describe('2025-11-25 (the client in legacy mode: initialize and a session)', () => clientCases(target, 'legacy'));
});
