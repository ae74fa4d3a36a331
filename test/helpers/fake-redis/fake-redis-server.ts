/**
 * A fake Redis in the test process, on 127.0.0.1, speaking RESP to a real ioredis client, for the
 * fast loop (which starts no child process, so no redis-server: test/support/fast.mocharc.cjs).
 * It runs Baton's own Lua scripts unchanged (lua-subset.ts) over an in-memory keyspace
 * (fake-redis-store.ts), so a broken script or a broken command fails a fast test. The real
 * Redis tests stay (single-use.test.ts and others, outside the fast loop): this fake knows only
 * what Baton sends, and nothing of persistence, eviction or a real network.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { FakeRedisStore, ReplyError, Status, type FakeRedisOptions, type Reply } from './fake-redis-store.js';

export interface FakeRedis {
  url: string;
  store: FakeRedisStore;
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}

function encode(reply: Reply): string {
  if (reply === null) return '$-1\r\n';
  if (reply instanceof Status) return `+${reply.value}\r\n`;
  if (reply instanceof ReplyError) return `-${reply.message.replace(/\r?\n/g, ' ')}\r\n`;
  if (typeof reply === 'number') return `:${reply}\r\n`;
  if (typeof reply === 'string') return `$${Buffer.byteLength(reply)}\r\n${reply}\r\n`;
  return `*${reply.length}\r\n${reply.map(encode).join('')}`;
}

/** The complete commands at the start of `buffer` (RESP arrays of bulk strings), and what is left. */
function parse(buffer: Buffer): { commands: string[][]; rest: Buffer } {
  const commands: string[][] = [];
  let at = 0;
  const line = (from: number): [string, number] | undefined => {
    const end = buffer.indexOf('\r\n', from);
    return end < 0 ? undefined : [buffer.toString('latin1', from, end), end + 2];
  };
  for (;;) {
    const head = line(at);
    if (!head) break;
    if (!head[0].startsWith('*')) throw new Error(`fake Redis: only RESP arrays are understood, got "${head[0]}"`);
    const count = Number(head[0].slice(1));
    const args: string[] = [];
    let cursor = head[1];
    for (let i = 0; i < count; i++) {
      const size = line(cursor);
      if (!size) break;
      const length = Number(size[0].slice(1));
      if (buffer.length < size[1] + length + 2) break;
      args.push(buffer.toString('utf8', size[1], size[1] + length));
      cursor = size[1] + length + 2;
    }
    if (args.length < count) break;
    commands.push(args);
    at = cursor;
  }
  return { commands, rest: buffer.subarray(at) };
}

export async function startFakeRedis(options: FakeRedisOptions = {}): Promise<FakeRedis> {
  const store = new FakeRedisStore(options);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const { commands, rest } = parse(Buffer.concat([pending, chunk]));
      pending = rest;
      // Each command runs whole before the next (scripts are atomic, as in Redis).
      for (const command of commands) socket.write(encode(store.execute(command)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
