import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { rpc } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

/**
 * A client that opens a request and then stalls (slowloris: headers sent, body trickling or
 * never finished) costs the server a socket; it must not cost other clients their service.
 */
describe('slow clients', () => {
  const CAP = 4;
  let server: RunningServer;
  let stalled: Socket[] = [];

  before(async () => {
    server = await startTestServer({ maxConcurrentRequests: CAP });
  });
  afterEach(() => {
    for (const socket of stalled) socket.destroy();
    stalled = [];
  });
  after(() => server.close());

  /** Sends the headers and the first bytes of a body that never arrives in full. */
  async function stallBodies(count: number): Promise<void> {
    const { port } = new URL(server.url);
    const opened = Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(Number(port), '127.0.0.1', () => {
            socket.write(
              `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
                `Content-Length: 1000\r\n\r\n{"jsonrpc":"2.0",`,
            );
            resolve(socket);
          });
          socket.on('error', reject);
        }),
    );
    stalled = await Promise.all(opened);
    // Let the server accept them and start reading their bodies.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  it('serves other clients while a few requests stall mid-body', async () => {
    await stallBodies(CAP - 1);
    const response = await rpc(server.url, 'server/discover');
    expect(response.status).to.equal(200);
    expect(response.body.result.resultType).to.equal('complete');
  });

  // Found by this suite: requests used to take a slot before their body arrived, so `cap`
  // trickling clients starved everyone. A slot is now taken after the body, which has a timeout.
  it('serves other clients while as many requests as the cap stall mid-body', async () => {
    await stallBodies(CAP);
    const response = await rpc(server.url, 'server/discover');
    expect(response.status, response.text).to.equal(200);
  });
});
