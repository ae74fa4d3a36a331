/**
 * The endpoint runs a request only after every socket ready in its turn has been read: two
 * requests that arrive together are both read before either tool's machine starts. Before
 * run-after-reads.ts, the first ran its round between the two reads.
 */
import { expect } from 'chai';
import net from 'node:net';
import { setup } from 'xstate';
import { createServer } from '../../server/create-server.js';
import { defineTool, silentLogger } from '../../server/engine/index.js';
import { requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { closeServer, testKeyRing } from '../helpers/test-server.js';

const log: string[] = [];

const note = defineTool({
  name: 'note',
  description: 'Notes that its round ran, then answers.',
  inputSchema: { type: 'object' },
  machine: setup({}).createMachine({
    initial: 'done',
    entry: () => log.push('round'),
    states: { done: { type: 'final' } },
    output: () => 'noted',
  }),
});

/** One tools/call as raw HTTP/1.1 text, so two can be written in the same tick. */
function rawCall(port: number, id: number): string {
  const message = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'note', arguments: {} } };
  const body = JSON.stringify({ ...message, params: { ...message.params, _meta: requestMeta() } });
  const headers = {
    ...standardHeaders(message),
    host: `127.0.0.1:${port}`,
    'content-length': String(Buffer.byteLength(body)),
  };
  return `POST /mcp HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n${body}`;
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with what the socket received once a whole response (up to its JSON's end) is in. */
function response(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (text.includes('\r\n\r\n') && text.trimEnd().endsWith('}')) resolve(text);
    });
  });
}

describe('the endpoint runs a turn’s requests after its reads', () => {
  it('reads two requests that arrive together before either round runs', async () => {
    const baton = createServer({ tools: [note], keyRing: testKeyRing(), logger: silentLogger });
    const { server } = await baton.listen(0, '127.0.0.1');
    const sockets: net.Socket[] = [];
    try {
      const { port } = server.address() as net.AddressInfo;
      server.on('request', () => log.push('read'));
      sockets.push(await connect(port), await connect(port));
      const answers = sockets.map(response);
      log.length = 0;
      // Written in one tick: on loopback both are readable when the server's loop next polls.
      sockets[0]!.write(rawCall(port, 1));
      sockets[1]!.write(rawCall(port, 2));
      const texts = await Promise.all(answers);
      for (const text of texts)
        expect(text)
          .to.match(/^HTTP\/1\.1 200/)
          .and.to.include('noted');
      expect(log).to.deep.equal(['read', 'read', 'round', 'round']);
    } finally {
      for (const socket of sockets) socket.destroy();
      await closeServer(server);
    }
  });
});
