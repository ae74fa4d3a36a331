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

  // Found by the fuzz run: each hang-up mid-body wrote an error-level `http_error` line, so any
  // client could fill the error log at the cost of one TCP connection per line.
  it('writes no error log line when a client hangs up mid-body', async () => {
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
