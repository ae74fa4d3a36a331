/**
 * The examples' vault page against a client that sends its headers and part of the form, then
 * nothing: the page cuts it off after its own short body timeout, not the server's 30 s request
 * timeout, and logs it as the client's fault (a warning with status 408), never as an error.
 */
import { expect } from 'chai';
import { connect } from 'node:net';
import { createServer } from '../../../server/create-server.js';
import type { Logger } from '../../../server/engine/index.js';
import { DEFAULT_CONNECTION_LIMITS } from '../../../server/http/index.js';
import {
  createMemoryVault,
  exampleTools,
  vaultPageRouter,
  VAULT_PAGE_BODY_TIMEOUT_MS,
} from '../../../machines/index.js';
import { closeServer, testKeyRing } from '../../helpers/test-server.js';

interface Line {
  level: string;
  event: string;
  fields?: Record<string, unknown>;
}

describe('vault page (example): a stalled form', () => {
  it('is cut off by the page and logged as a warning naming 408, with no error line', async () => {
    const lines: Line[] = [];
    const record = (level: string) => (event: string, fields?: Record<string, unknown>) =>
      lines.push({ level, event, ...(fields ? { fields } : {}) });
    const logger: Logger = { info: record('info'), warn: record('warn'), error: record('error') };
    const keyRing = testKeyRing();
    const vault = createMemoryVault();
    const baton = createServer({
      keyRing,
      logger,
      tools: exampleTools({ publicUrl: 'http://127.0.0.1:0', vault }),
      routers: [vaultPageRouter(vault, { keyRing, identify: async () => 'anonymous', bodyTimeoutMs: 200 })],
      // The server's own request timeout, far above the page's: only the page can end it first.
      connectionLimits: { headersTimeoutMs: 3_000, requestTimeoutMs: 3_000 },
    });
    const { server, url } = await baton.listen(0, '127.0.0.1');
    try {
      const port = Number(new URL(url).port);
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(
            `POST /vault/p1.test.reference HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
              'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nsecret=sk_',
          ),
        );
        socket.on('error', reject).on('close', () => resolve());
        socket.resume();
      });
      // Koa reports the error as the socket closes; let it reach the logger.
      await new Promise((resolve) => setImmediate(resolve));
      const http = lines.filter((line) => line.event.startsWith('http_'));
      expect(http.filter((line) => line.level === 'error')).to.deep.equal([]);
      expect(http.map((line) => [line.level, line.fields?.status])).to.deep.equal([['warn', 408]]);
    } finally {
      await closeServer(server);
      await baton.close();
    }
  });

  it('waits a few seconds by default, well below the server request timeout', () => {
    expect(VAULT_PAGE_BODY_TIMEOUT_MS).to.be.at.most(DEFAULT_CONNECTION_LIMITS.requestTimeoutMs / 3);
  });
});
