/**
 * HTTP/1.1 over a bare TCP socket, so the fuzzer controls every byte it sends (invalid UTF-8,
 * CR/LF inside header values, conflicting framing headers, stalled bodies) and sees exactly what
 * comes back, including a connection dropped without an answer.
 */
import { connect } from 'node:net';

export interface RawRequest {
  method?: string;
  path?: string;
  /** The request line's version (`HTTP/1.1` by default). */
  version?: string;
  /** Sent in order, duplicates allowed; `host` and `connection: close` are added unless present. */
  headers?: Array<[string, string]>;
  body?: Buffer | string;
  /** Send the body chunked (in pieces of this many bytes) instead of with Content-Length. */
  chunkSize?: number;
  /** Send no Content-Length (and no chunking) at all. */
  noLength?: boolean;
}

export type Outcome =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: Buffer; ms: number }
  /** The server closed or reset the connection without a complete answer. */
  | { kind: 'closed' | 'reset' | 'refused' | 'timeout' | 'error'; detail: string; ms: number };

const CRLF = '\r\n';

export function buildRequest(port: number, request: RawRequest): Buffer {
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body as Buffer);
  const headers = [...(request.headers ?? [])];
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  if (!has('host')) headers.unshift(['Host', `127.0.0.1:${port}`]);
  if (!has('connection')) headers.push(['Connection', 'close']);
  let payload = body;
  if (request.chunkSize) {
    headers.push(['Transfer-Encoding', 'chunked']);
    const parts: Buffer[] = [];
    for (let at = 0; at < body.length; at += request.chunkSize) {
      const piece = body.subarray(at, at + request.chunkSize);
      parts.push(Buffer.from(`${piece.length.toString(16)}${CRLF}`), piece, Buffer.from(CRLF));
    }
    parts.push(Buffer.from(`0${CRLF}${CRLF}`));
    payload = Buffer.concat(parts);
  } else if (!request.noLength && !has('content-length') && !has('transfer-encoding')) {
    headers.push(['Content-Length', String(body.length)]);
  }
  const head =
    `${request.method ?? 'POST'} ${request.path ?? '/mcp'} ${request.version ?? 'HTTP/1.1'}${CRLF}` +
    headers.map(([name, value]) => `${name}: ${value}${CRLF}`).join('') +
    CRLF;
  // latin1 keeps every code unit below 256 as one byte, so a test can put any byte in a header.
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

/** Parses one complete response from the front of `data`, or undefined if more bytes are needed. */
export function parseResponse(
  data: Buffer,
  headRequest = false,
): { status: number; headers: Record<string, string>; body: Buffer } | undefined {
  let offset = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', offset);
    if (end < 0) return undefined;
    const lines = data.subarray(offset, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN);
    if (!Number.isInteger(status)) return { status: 0, headers: {}, body: data.subarray(offset) };
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const start = end + 4;
    // Interim answers (100 Continue) come before the real one.
    if (status >= 100 && status < 200) {
      offset = start;
      continue;
    }
    if (headRequest || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const body = dechunk(data.subarray(start));
      return body && { status, headers, body };
    }
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (data.length - start < length) return undefined;
      return { status, headers, body: data.subarray(start, start + length) };
    }
    // Neither: the body runs until the server closes; the caller decides at close.
    return undefined;
  }
}

function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

export interface ExchangeOptions {
  timeoutMs: number;
  /** Bytes to send after the first ones, each after a delay (a trickling or stalling client). */
  later?: Array<{ afterMs: number; bytes: Buffer }>;
  headRequest?: boolean;
  /** The client's own address (127.0.0.2, …): per-client limits count addresses. */
  localAddress?: string;
}

/** Sends `bytes` on a fresh connection and waits for one response, a close, or the timeout. */
export function exchange(port: number, bytes: Buffer, options: ExchangeOptions): Promise<Outcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    const timers: NodeJS.Timeout[] = [];
    let settled = false;
    const socket = connect({
      port,
      host: '127.0.0.1',
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const complete = () => {
      const parsed = parseResponse(Buffer.concat(received), options.headRequest);
      if (parsed) finish({ kind: 'response', ...parsed, ms: ms() });
    };
    timers.push(
      setTimeout(
        () => finish({ kind: 'timeout', detail: `no answer within ${options.timeoutMs} ms`, ms: ms() }),
        options.timeoutMs,
      ),
    );
    socket.on('connect', () => {
      socket.write(bytes, () => {});
      for (const step of options.later ?? []) {
        timers.push(setTimeout(() => !socket.destroyed && socket.write(step.bytes, () => {}), step.afterMs));
      }
    });
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      complete();
    });
    socket.on('end', () => {
      const data = Buffer.concat(received);
      const parsed = parseResponse(data, options.headRequest);
      if (parsed) return finish({ kind: 'response', ...parsed, ms: ms() });
      // A response whose body runs to the close (no length, not chunked).
      const head = data.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(data.toString('latin1'))?.[1] ?? NaN);
      if (head >= 0 && Number.isInteger(status)) {
        return finish({ kind: 'response', status, headers: {}, body: data.subarray(head + 4), ms: ms() });
      }
      finish({ kind: 'closed', detail: data.length ? `partial answer: ${data.length} bytes` : 'no answer', ms: ms() });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset can follow a complete answer (the server stops reading an oversized body).
      complete();
      const kind = error.code === 'ECONNREFUSED' ? 'refused' : error.code === 'ECONNRESET' ? 'reset' : 'error';
      finish({ kind, detail: error.code ?? error.message, ms: ms() });
    });
  });
}
