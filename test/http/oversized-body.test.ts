/**
 * A body over the size limit is refused before it is read, yet its client still gets the 413 and
 * its JSON-RPC error. Closing the socket while the client was still sending made Node's fetch (what
 * the official client uses) report `fetch failed` (EPIPE) three times out of three for 4 MiB, where
 * curl saw the 413; Baton now reads and discards the rest of such a body, bounded in bytes and time,
 * as nginx's lingering close does, before the connection goes on or closes.
 */
import { expect } from 'chai';
import { connect } from 'node:net';
import { requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';
import { generateKeyEntry } from '../../server/engine/index.js';

const message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: requestMeta() } };

function oversized(bytes: number): string {
  return JSON.stringify({ ...message, params: { ...message.params, pad: 'x'.repeat(bytes) } });
}

describe('an oversized request body', function () {
  this.timeout(60_000);
  // A separate process, as in production: in the test's own process the refusal raced differently,
  // and fetch saw the 413 even before the fix.
  const fleet = new BatonFleet();
  let server: BatonInstance;
  before(async function () {
    this.timeout(120_000);
    server = await fleet.start({ keys: generateKeyEntry('t'), readyTimeoutMs: 90_000 });
  });
  after(() => fleet.stopAll());

  for (const attempt of [1, 2, 3]) {
    it(`reaches Node's fetch as 413 with its JSON-RPC error (4 MiB, attempt ${attempt})`, async () => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: standardHeaders(message),
        body: oversized(4 * 1024 * 1024),
      });
      expect(response.status).to.equal(413);
      const body = await response.json();
      expect(body.error.code).to.equal(-32600);
      expect(body.error.message).to.include('1048576');
    });
  }

  it('reaches a raw socket that sends its whole body as 413 with the JSON-RPC error', async () => {
    const body = Buffer.from(oversized(4 * 1024 * 1024));
    const { port } = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      const headers = Object.entries({ ...standardHeaders(message), 'content-length': String(body.length) })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n${headers}\r\n`);
      socket.end(body);
    });
    expect(answer).to.match(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code).to.equal(-32600);
  });

  it('keeps the connection for the next request once the refused body has been read', async () => {
    const body = Buffer.from(oversized(2 * 1024 * 1024));
    const { port } = new URL(server.url);
    const small = JSON.stringify(message);
    const answers = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if ((text.match(/HTTP\/1\.1 /g) ?? []).length === 2 && text.includes('"tools"')) socket.end();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      const head = (length: number) =>
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${Object.entries({
          ...standardHeaders(message),
          'content-length': String(length),
        })
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('')}\r\n`;
      socket.write(head(body.length));
      socket.write(body);
      socket.write(head(Buffer.byteLength(small)) + small);
    });
    expect(answers).to.match(/^HTTP\/1\.1 413 /);
    expect(answers).to.match(/HTTP\/1\.1 200 [\s\S]*"tools"/);
  });
});
