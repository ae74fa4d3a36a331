/**
 * Attacks on the HTTP layer itself: header injection and smuggling attempts, request lines and
 * paths Baton does not serve, clients that stall mid-request, and many connections at once. Node's
 * parser answers malformed framing with a bare 400 (or drops the connection); that is fine, a 5xx
 * or a hang is not.
 */
import { connect, type Socket } from 'node:net';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { message } from '../../test/helpers/hostile-messages.js';
import { mcpRequest, type Attack, type Finding } from './attack.js';
import { HONEST_ADDRESS, type FuzzContext } from './fuzz-context.js';
import { templates } from './message-attacks.js';
import { buildRequest, exchange } from './raw-http.js';

const DISCOVER = JSON.stringify(message('server/discover', {}));
const STANDARD: Array<[string, string]> = [
  ['Content-Type', 'application/json'],
  ['MCP-Protocol-Version', PROTOCOL_VERSION],
  ['Mcp-Method', 'server/discover'],
];
const INJECTIONS = [
  '\r\n',
  '\n',
  '\r',
  '\0',
  '\x7f',
  '\r\n\t',
  '\r\nX-Injected: 1',
  '\r\n\r\n{"jsonrpc":"2.0","id":9}',
];
const LENGTHS = ['', ' 12', '12 ', '+12', '0x10', '1e3', '12, 12', '-0', '99999999999999999999', 'abc'];
const ENCODINGS = ['chunked', ' chunked', 'Chunked', 'chunked\t', 'xchunked', 'chunked, identity', 'gzip, chunked'];

/** Request heads and framings a careful parser refuses, and a few it should accept. */
function headerCases(port: number): Array<[string, Buffer]> {
  const host = `Host: 127.0.0.1:${port}\r\nConnection: close\r\n`;
  const head = (extra: string, body = DISCOVER, line = 'POST /mcp HTTP/1.1') =>
    Buffer.from(
      `${line}\r\n${host}${STANDARD.map(([n, v]) => `${n}: ${v}\r\n`).join('')}${extra}\r\n${body}`,
      'latin1',
    );
  const len = `Content-Length: ${Buffer.byteLength(DISCOVER)}\r\n`;
  const cases: Array<[string, Buffer]> = [];
  for (const injected of INJECTIONS) {
    for (const name of ['Mcp-Name', 'Mcp-Method', 'MCP-Protocol-Version', 'Origin', 'Authorization']) {
      cases.push([`${JSON.stringify(injected)} inside ${name}`, head(`${name}: a${injected}b\r\n${len}`)]);
    }
  }
  for (const value of LENGTHS)
    cases.push([`Content-Length ${JSON.stringify(value)}`, head(`Content-Length: ${value}\r\n`)]);
  for (const value of ENCODINGS) {
    cases.push([
      `Transfer-Encoding ${JSON.stringify(value)} with Content-Length`,
      head(`Transfer-Encoding: ${value}\r\n${len}`),
    ]);
  }
  cases.push(
    ['two different Content-Lengths', head(`Content-Length: 5\r\n${len}`)],
    ['invalid chunk size', head('Transfer-Encoding: chunked\r\n', 'zz\r\nabc\r\n0\r\n\r\n')],
    [
      'chunk extension and trailer',
      head(
        'Transfer-Encoding: chunked\r\n',
        `${Buffer.byteLength(DISCOVER).toString(16)};x=y\r\n${DISCOVER}\r\n0\r\nX-Trailer: 1\r\n\r\n`,
      ),
    ],
    ['obs-fold continuation line', head(`X-Folded: a\r\n  b\r\n${len}`)],
    ['header name with a space', head(`Bad Name: x\r\n${len}`)],
    ['header without a colon', head(`NoColon\r\n${len}`)],
    ['20 KB header value', head(`X-Big: ${'a'.repeat(20_000)}\r\n${len}`)],
    ['3000 headers', head(`${'X-Many: 1\r\n'.repeat(3000)}${len}`)],
    ['second Host header naming another site', head(`Host: evil.example\r\n${len}`)],
    [
      'Host of another site',
      Buffer.from(`POST /mcp HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n${len}\r\n${DISCOVER}`),
    ],
    ['no Host header', Buffer.from(`POST /mcp HTTP/1.1\r\nConnection: close\r\n${len}\r\n${DISCOVER}`)],
    ['foreign Origin', head(`Origin: http://evil.example\r\n${len}`)],
    ['Origin null', head(`Origin: null\r\n${len}`)],
    ['Expect: 100-continue', head(`Expect: 100-continue\r\n${len}`)],
    ['unknown Expect', head(`Expect: x-fuzz\r\n${len}`)],
    ['Upgrade: websocket', head(`Connection: Upgrade\r\nUpgrade: websocket\r\n${len}`)],
    ['HTTP/1.0', head(len, DISCOVER, 'POST /mcp HTTP/1.0')],
    ['HTTP/2.0 on the request line', head(len, DISCOVER, 'POST /mcp HTTP/2.0')],
    ['HTTP/9.9', head(len, DISCOVER, 'POST /mcp HTTP/9.9')],
    ['absolute-form target', head(len, DISCOVER, 'POST http://evil.example/mcp HTTP/1.1')],
    ['lowercase method', head(len, DISCOVER, 'post /mcp HTTP/1.1')],
    ['HTTP/2 preface', Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')],
    ['binary garbage', Buffer.from([0, 1, 2, 255, 254, 13, 10, 13, 10])],
    ['pipelined request then garbage', Buffer.concat([head(len).subarray(0), Buffer.from('GARBAGE\r\n\r\n')])],
  );
  return cases;
}

export async function headerInjection(ctx: FuzzContext, count: number): Promise<void> {
  const cases = headerCases(ctx.port);
  const attacks: Attack[] = Array.from({ length: count }, (_, i) => {
    const [label, bytes] = cases[i % cases.length]!;
    return { label, bytes, expectJson: false, mayDrop: true };
  });
  await ctx.sendAll(attacks);
}

const PATHS = [
  '/',
  '/MCP',
  '/mcp/',
  '//mcp',
  '/mcp/../mcp',
  '/mcp%00',
  '/%ZZ',
  '/%ff',
  '/mcp?x=%ZZ',
  '/healthz',
  '/healthz/..',
  '/vault/',
  '/vault/%ZZ',
  '/vault/00000000-0000-0000-0000-000000000000',
  '/.well-known/oauth-protected-resource',
  '/docs',
  `/${'a'.repeat(8000)}`,
  '*',
];
const METHODS = ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'FOO', 'POST'];

export async function methodsAndPaths(ctx: FuzzContext, count: number): Promise<void> {
  const attacks: Attack[] = [];
  for (let i = 0; attacks.length < count; i += 1) {
    const method = METHODS[i % METHODS.length]!;
    const path = i % 3 === 0 ? '/mcp' : PATHS[Math.floor(i / 3) % PATHS.length]!;
    const vaultPost = path.startsWith('/vault/0') && method === 'POST';
    const body = vaultPost ? `secret=${'k'.repeat(8 + (i % 5000))}` : DISCOVER;
    attacks.push({
      label: `${method} ${path.slice(0, 60)}`,
      bytes: buildRequest(ctx.port, { method, path, headers: STANDARD, body }),
      expectJson: path === '/mcp',
      headRequest: method === 'HEAD',
    });
  }
  await ctx.sendAll(attacks);
}

/**
 * Clients that open a request and stall: a partial body, a first chunk only, unfinished headers,
 * a body trickling a byte at a time, more of them than the concurrent-request cap (256 by
 * default). Honest requests sent meanwhile must be served.
 */
export async function stalledBodies(ctx: FuzzContext, count: number, stallMs: number): Promise<Finding[]> {
  const host = `Host: 127.0.0.1:${ctx.port}\r\n`;
  const head = `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\n`;
  const kinds: Array<[string, Buffer, Buffer | undefined]> = [
    [
      'Content-Length 1000, 20 bytes sent',
      Buffer.from(`${head}Content-Length: 1000\r\n\r\n{"jsonrpc":"2.0","i`),
      undefined,
    ],
    [
      'chunked, first chunk only',
      Buffer.from(`${head}Transfer-Encoding: chunked\r\n\r\n10\r\n{"jsonrpc":"2.0"\r\n`),
      undefined,
    ],
    ['headers never finished', Buffer.from(`${head}X-Slow: 1\r\n`), undefined],
    ['body trickling', Buffer.from(`${head}Content-Length: 5000\r\n\r\n{`), Buffer.from(' ')],
    [
      'Expect: 100-continue, no body',
      Buffer.from(`${head}Expect: 100-continue\r\nContent-Length: 100\r\n\r\n`),
      undefined,
    ],
  ];
  const stalls = Array.from({ length: count }, (_, i) => {
    const [label, bytes, drip] = kinds[i % kinds.length]!;
    const later = drip
      ? Array.from({ length: Math.floor(stallMs / 250) }, (_, k) => ({ afterMs: 250 * (k + 1), bytes: drip }))
      : [];
    return ctx.send({
      label: `stall: ${label}`,
      bytes,
      expectJson: false,
      mayDrop: true,
      mayTimeOut: true,
      timeoutMs: stallMs,
      ...(later.length ? { later } : {}),
    });
  });
  // While they hold their sockets, other clients must still be served.
  await new Promise((resolve) => setTimeout(resolve, Math.min(500, stallMs / 2)));
  const findings: Finding[] = [];
  for (let i = 0; i < 10; i += 1) {
    const outcome = await exchange(ctx.port, mcpRequest(ctx.port, DISCOVER), {
      timeoutMs: 5_000,
      localAddress: HONEST_ADDRESS,
    });
    if (outcome.kind !== 'response' || outcome.status !== 200) {
      const detail =
        outcome.kind === 'response' ? `${outcome.status} ${outcome.body.toString().slice(0, 200)}` : outcome.kind;
      findings.push({
        kind: 'starved',
        label: `honest request during ${count} stalled requests`,
        detail,
        request: 'server/discover',
      });
    }
  }
  await Promise.all(stalls);
  return findings;
}

/** Many connections at once: idle sockets held open while a burst of full requests arrives. */
export async function concurrentConnections(ctx: FuzzContext, burst: number, idle: number): Promise<void> {
  const sockets: Socket[] = [];
  await Promise.all(
    Array.from(
      { length: idle },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect(ctx.port, '127.0.0.1', () => resolve());
          socket.on('error', () => resolve());
          sockets.push(socket);
        }),
    ),
  );
  try {
    const bodies = templates().map((t) => JSON.stringify(t));
    await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        ctx.send({
          label: `burst of ${burst} at once`,
          bytes: mcpRequest(ctx.port, bodies[i % bodies.length]!),
          expectJson: true,
        }),
      ),
    );
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}
