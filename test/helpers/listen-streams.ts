/**
 * `subscriptions/listen` streams held open from a chosen loopback address: per-caller limits count
 * client addresses, so a test opens the flood from one address and the honest client from another.
 */
import { request, type ClientRequest } from 'node:http';
import { requestMeta, standardHeaders } from './mcp-http.js';
import { splitSseEvents } from './sse-events.js';
import { TASK_CLIENT } from './tasks.js';

export interface HeldListen {
  status: number;
  /** The JSON body of a refusal, or the first SSE message (the acknowledgment) of an open stream. */
  first: any;
  headers: Record<string, string | string[] | undefined>;
  /** Every SSE message and comment line received so far, in order (comments as `: …` strings). */
  received: Array<any | string>;
  /** Resolves when the server ends the stream (graceful closure), with everything received. */
  ended: Promise<Array<any | string>>;
  close(): void;
}

let nextId = 1;

export function holdListen(
  url: string,
  notifications: Record<string, unknown>,
  options: { localAddress?: string; capabilities?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<HeldListen> {
  const message = {
    jsonrpc: '2.0',
    id: `listen-${nextId++}`,
    method: 'subscriptions/listen',
    params: { notifications, _meta: requestMeta(options.capabilities ?? TASK_CLIENT) },
  };
  const body = JSON.stringify(message);
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined = undefined;
    req = request(
      url,
      {
        method: 'POST',
        agent: false,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        headers: { ...standardHeaders(message), 'content-length': Buffer.byteLength(body), ...options.headers },
      },
      (res) => {
        const received: Array<any | string> = [];
        let text = '';
        let settled = false;
        let endedResolve!: (value: Array<any | string>) => void;
        const ended = new Promise<Array<any | string>>((r) => (endedResolve = r));
        const held = (first: any): HeldListen => ({
          status: res.statusCode ?? 0,
          first,
          headers: res.headers,
          received,
          ended,
          close: () => req!.destroy(),
        });
        res.setEncoding('utf8');
        const sse = String(res.headers['content-type']).startsWith('text/event-stream');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (!sse) return;
          for (const line of chunk.split('\n')) if (line.startsWith(': ')) received.push(line);
          const split = splitSseEvents(text);
          text = split.rest;
          received.push(...split.messages);
          const first = received.find((item) => typeof item !== 'string');
          if (!settled && first !== undefined) {
            settled = true;
            resolve(held(first));
          }
        });
        res.on('end', () => {
          endedResolve(received);
          if (!settled) {
            settled = true;
            resolve(held(sse ? received.find((item) => typeof item !== 'string') : JSON.parse(text)));
          }
        });
        res.on('error', () => endedResolve(received));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
