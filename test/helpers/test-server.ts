/**
 * Starts a real Baton server on 127.0.0.1 (a free port) inside the test process, with injected
 * keys, clock and logger, and stops it afterwards.
 */
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createServer, type BatonOptions, type BatonServer } from '../../server/create-server.js';
import { KeyRing, silentLogger, type ToolDefinition } from '../../server/engine/index.js';
import { pageVisitor } from '../../server/http/index.js';
import { createMemoryVault, exampleTools, vaultPageRouter, type SecretVault } from '../../machines/index.js';

export interface RunningServer {
  url: string;
  origin: string;
  baton: BatonServer;
  vault: SecretVault;
  close(): Promise<void>;
}

export function testKeyRing(id = 'test'): KeyRing {
  return new KeyRing([{ id, secret: new Uint8Array(randomBytes(32)) }]);
}

export async function startTestServer(
  options: Partial<BatonOptions> & { tools?: ToolDefinition[] } = {},
): Promise<RunningServer> {
  const vault = createMemoryVault();
  // The vault page's URL is only known once the port is; exampleTools reads it at each flow start.
  const examples = { publicUrl: 'http://127.0.0.1:0', vault };
  const keyRing = options.keyRing ?? testKeyRing();
  const baton = createServer({
    keyRing,
    logger: silentLogger,
    routers: [
      vaultPageRouter(vault, {
        keyRing,
        identify: pageVisitor(options.authenticate),
        asksForToken: Boolean(options.authenticate),
      }),
    ],
    ...options,
    tools: options.tools ?? exampleTools(examples),
  });
  const { server, url } = await baton.listen(0, '127.0.0.1');
  const origin = new URL(url).origin;
  examples.publicUrl = origin;
  return {
    url,
    origin,
    baton,
    vault,
    close: () => closeServer(server),
  };
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
