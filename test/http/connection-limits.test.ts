import { expect } from 'chai';
import type { Socket } from 'node:net';
import { callToolFrom, closedWith, openSocket, postFrom } from '../helpers/from-address.js';
import { requestMeta } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const DISCOVER = {
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: { _meta: requestMeta() },
};

function bodyHead(port: number, length: number): string {
  return (
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n\r\n`
  );
}

describe('connection limits (before the body is read)', () => {
  const MIB = 1024 * 1024;
  let server: RunningServer;
  let port: number;
  let sockets: Socket[] = [];

  before(async () => {
    server = await startTestServer({
      maxBodyBytesInFlight: 3 * MIB,
      maxBodyBytesPerClient: 2 * MIB,
      connectionLimits: { headersTimeoutMs: 300, maxSocketsPerClient: 6 },
    });
    port = Number(new URL(server.url).port);
  });
  afterEach(() => {
    for (const socket of sockets) socket.destroy();
    sockets = [];
  });
  after(() => server.close());

  async function stall(count: number, localAddress: string, length = MIB): Promise<void> {
    for (let i = 0; i < count; i++) {
      const socket = await openSocket(port, bodyHead(port, length), localAddress);
      socket.write(Buffer.alloc(length - 1, 0x20));
      sockets.push(socket);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  it('answers 503 with Retry-After, body unread, once a client holds its share of body bytes', async () => {
    await stall(2, '127.0.0.1');
    const refused = await openSocket(port, bodyHead(port, MIB), '127.0.0.1');
    sockets.push(refused);
    const answer = await closedWith(refused);
    expect(answer).to.match(/^HTTP\/1\.1 503 /);
    expect(answer).to.match(/\r\nretry-after: 1\r\n/i);
    // Another client still has room.
    const other = await postFrom('127.0.0.2', server.url, DISCOVER);
    expect(other.status).to.equal(200);
  });

  it('answers 503 to a chunked body once it outgrows what its client may still hold', async () => {
    await stall(2, '127.0.0.10');
    const chunked = await openSocket(
      port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      '127.0.0.10',
    );
    sockets.push(chunked);
    chunked.write('10\r\n{"jsonrpc":"2.0",\r\n');
    expect(await closedWith(chunked)).to.match(/^HTTP\/1\.1 503 /);
  });

  it('answers 503 when all clients together hold the instance-wide budget', async () => {
    await stall(2, '127.0.0.3');
    await stall(1, '127.0.0.4');
    const refused = await postFrom('127.0.0.5', server.url, {
      ...DISCOVER,
      params: { ...DISCOVER.params, pad: 'x'.repeat(4096) },
    });
    expect(refused.status).to.equal(503);
    expect(refused.headers.get('retry-after')).to.equal('1');
    expect(refused.body.error.code).to.equal(-31000);
    expect(refused.body.error.data.reason).to.equal('body_bytes_in_flight');
  });

  it('gives the bytes back when a stalled body is cut off', async () => {
    await stall(2, '127.0.0.6');
    for (const socket of sockets) socket.destroy();
    sockets = [];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const flow = await callToolFrom('127.0.0.6', server.url, 'release', { service: 'api', version: '1' });
    expect(flow.status).to.equal(200);
  });

  it('closes a socket that trickles its headers once headersTimeout passes', async () => {
    const slow = await openSocket(port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`, '127.0.0.7');
    sockets.push(slow);
    const timer = setInterval(() => slow.write('X-Slow: 1\r\n'), 100);
    try {
      const answer = await closedWith(slow);
      expect(answer === '' || /^HTTP\/1\.1 408 /.test(answer), answer).to.equal(true);
    } finally {
      clearInterval(timer);
    }
  });

  it('closes sockets beyond the per-client cap at once, and serves other addresses', async () => {
    for (let i = 0; i < 6; i++) sockets.push(await openSocket(port, '', '127.0.0.8'));
    const extra = await openSocket(port, '', '127.0.0.8');
    sockets.push(extra);
    expect(await closedWith(extra)).to.equal('');
    const other = await postFrom('127.0.0.9', server.url, DISCOVER);
    expect(other.status).to.equal(200);
  });
});
