/**
 * Requests from another loopback address (127.0.0.2, …): per-client limits count client
 * addresses, so an honest client must come from elsewhere than the attack it shares a test with.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { requestMeta, standardHeaders, type RawResponse } from './mcp-http.js';

export function postFrom(
  localAddress: string,
  url: string,
  message: Record<string, any>,
  extraHeaders: Record<string, string> = {},
): Promise<RawResponse> {
  const body = JSON.stringify(message);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { ...standardHeaders(message), 'content-length': Buffer.byteLength(body), ...extraHeaders },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let parsed: any;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') headers.set(name, value);
          resolve({ status: res.statusCode ?? 0, headers, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let nextId = 1;

/** tools/call from `localAddress`, with conformant headers and `_meta`. */
export function callToolFrom(
  localAddress: string,
  url: string,
  name: string,
  args: Record<string, unknown>,
  round: { requestState?: unknown; inputResponses?: unknown } = {},
): Promise<RawResponse> {
  return postFrom(localAddress, url, {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: { name, arguments: args, ...round, _meta: requestMeta({ elicitation: { form: {}, url: {} } }) },
  });
}

/** A socket from `localAddress` that has sent `head` (and nothing more, until the test writes). */
export function openSocket(port: number, head: string, localAddress = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => {
      socket.write(head);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/** Resolves with what the server sent once it closes the socket. */
export function closedWith(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve(received));
  });
}
