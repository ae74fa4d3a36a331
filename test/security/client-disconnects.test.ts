import { expect } from 'chai';
import { connect } from 'node:net';
import type { Logger } from '../../server/engine/index.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

/** A client hanging up is ordinary on the internet; the server's error log is for the server's faults. */
describe('client disconnects', () => {
  let server: RunningServer;
  const errors: string[] = [];
  const logger: Logger = {
    info() {},
    warn() {},
    error(event, fields) {
      errors.push(`${event} ${JSON.stringify(fields)}`);
    },
  };

  before(async () => {
    server = await startTestServer({ logger });
  });
  after(() => server.close());

  // BUG: a client that closes its connection in the middle of a request body makes Koa emit
  // `Parse Error` (HPE_INVALID_EOF_STATE) on the app, and server/http/http-app.ts only treats
  // ECONNRESET and EPIPE as ordinary, so each such request writes an error-level `http_error`
  // line. The fuzz run logs ~270 of them for its 300 stalled bodies; any client can fill the error
  // log (and page whoever watches it) at the cost of one TCP connection per line.
  it.skip('writes no error log line when a client hangs up mid-body', async () => {
    const { port } = new URL(server.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
            `Content-Length: 1000\r\n\r\n{"jsonrpc":"2.0",`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
      socket.on('error', () => resolve());
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(errors).to.deep.equal([]);
  });
});
