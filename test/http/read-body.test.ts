/**
 * readBody on real requests: a body that came with its headers is taken whole from the stream's
 * buffer (no timer, no listeners: the hot path), a body that trickles in is collected, and the
 * limits hold.
 */
import { expect } from 'chai';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyTimeoutError, BodyTooLargeError, readBody } from '../../server/http/read-body.js';

interface Read {
  body?: string;
  error?: Error;
  timersStarted: number;
}

/** A server whose handler reads the body with readBody, counting the timers started meanwhile. */
async function withServer(limit: number, timeoutMs: number, run: (port: number, reads: Read[]) => Promise<void>) {
  const reads: Read[] = [];
  const server = http.createServer((request: IncomingMessage, response) => {
    const read: Read = { timersStarted: 0 };
    const original = globalThis.setTimeout;
    globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
      read.timersStarted++;
      return original(...args);
    }) as typeof setTimeout;
    const pending = readBody(request, limit, timeoutMs);
    pending.finally(() => (globalThis.setTimeout = original)).catch(() => undefined);
    pending.then(
      (body) => {
        read.body = body;
        reads.push(read);
        response.end('ok');
      },
      (error: Error) => {
        read.error = error;
        reads.push(read);
        response.end('refused');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run((server.address() as AddressInfo).port, reads);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function post(port: number, chunks: string[], headers: Record<string, string | number> = {}, gapMs = 0) {
  return new Promise<string>((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method: 'POST', headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(text));
    });
    request.on('error', reject);
    let index = 0;
    const next = () => {
      if (index === chunks.length - 1) return request.end(chunks[index]);
      request.write(chunks[index++]);
      setTimeout(next, gapMs);
    };
    next();
  });
}

describe('readBody', () => {
  it('takes a body that came with its headers from the buffer, starting no timer', async () => {
    await withServer(1024, 1000, async (port, reads) => {
      const body = JSON.stringify({ hello: 'world'.repeat(40) });
      await post(port, [body], { 'content-length': Buffer.byteLength(body) });
      expect(reads[0]!.body).to.equal(body);
      expect(reads[0]!.timersStarted).to.equal(0);
    });
  });

  it('collects a body that trickles in, under its time limit', async () => {
    await withServer(1024, 1000, async (port, reads) => {
      await post(port, ['{"a":', '1}'], { 'content-length': 7 }, 30);
      expect(reads[0]!.body).to.equal('{"a":1}');
      await post(port, ['{"b":', '2}'], { 'transfer-encoding': 'chunked' }, 30);
      expect(reads[1]!.body).to.equal('{"b":2}');
    });
  });

  it('refuses a declared or a streamed body over the limit, and one that stalls', async () => {
    await withServer(8, 100, async (port, reads) => {
      await post(port, ['x'.repeat(9)], { 'content-length': 9 });
      expect(reads[0]!.error).to.be.instanceOf(BodyTooLargeError);
      await post(port, ['xxxxx', 'xxxxx'], { 'transfer-encoding': 'chunked' }, 10);
      expect(reads[1]!.error).to.be.instanceOf(BodyTooLargeError);
      await post(port, ['{', '}'], { 'content-length': 2 }, 300).catch(() => undefined);
      expect(reads[2]!.error).to.be.instanceOf(BodyTimeoutError);
    });
  });
});
