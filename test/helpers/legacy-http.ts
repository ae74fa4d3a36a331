/**
 * A raw 2025-11-25 client for tests: `initialize` opens a session, every later POST carries its
 * `Mcp-Session-Id`, and a call's SSE stream is read event by event, so a test can answer the
 * server's questions while the call is still open (as a real legacy client does).
 */
import { postRaw, type RawResponse } from './mcp-http.js';
import { splitSseEvents } from './sse-events.js';

export const LEGACY_VERSION = '2025-11-25';

let nextId = 1;

export interface LegacySessionClient {
  sessionId: string;
  headers: Record<string, string>;
  /** Posts one message in the session and reads the whole answer. */
  post(message: Record<string, unknown>): Promise<RawResponse>;
  /** Sends a request and reads the whole answer. */
  request(method: string, params?: Record<string, unknown>): Promise<RawResponse>;
  /** Opens a request whose answer streams: read messages one at a time. */
  stream(method: string, params?: Record<string, unknown>): Promise<LegacyStream>;
  /** Answers a server-to-client request with a result (or an error). */
  answer(id: unknown, result: unknown, asError?: boolean): Promise<RawResponse>;
}

export interface LegacyStream {
  /** The id of the request whose answer this is. */
  id: number;
  status: number;
  contentType: string | null;
  instance: string | null;
  /** The next message on the stream, or undefined when it ended. */
  next(): Promise<any>;
  /** Closes the connection, as a client that goes away. */
  abort(): void;
}

export async function initializeSession(
  url: string,
  capabilities: Record<string, unknown> = { elicitation: {} },
  protocolVersion = LEGACY_VERSION,
): Promise<{ response: RawResponse; client: LegacySessionClient }> {
  const response = await postRaw(
    url,
    JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: { protocolVersion, capabilities, clientInfo: { name: 'legacy-test', version: '1.0.0' } },
    }),
    { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  );
  const sessionId = response.headers.get('mcp-session-id') ?? '';
  return { response, client: sessionClient(url, sessionId, response.body?.result?.protocolVersion ?? protocolVersion) };
}

export function sessionClient(url: string, sessionId: string, protocolVersion = LEGACY_VERSION): LegacySessionClient {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': sessionId,
    'mcp-protocol-version': protocolVersion,
  };
  const post = (message: Record<string, unknown>) => postRaw(url, JSON.stringify(message), headers);
  return {
    sessionId,
    headers,
    post,
    request: (method, params = {}) => post({ jsonrpc: '2.0', id: nextId++, method, params }),
    answer: (id, result, asError = false) =>
      post(asError ? { jsonrpc: '2.0', id, error: result } : { jsonrpc: '2.0', id, result }),
    async stream(method, params = {}) {
      const controller = new AbortController();
      const id = nextId++;
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        signal: controller.signal,
      });
      const contentType = response.headers.get('content-type');
      const queue: any[] = [];
      if (!contentType?.includes('text/event-stream')) {
        queue.push(JSON.parse(await response.text()));
        return {
          id,
          status: response.status,
          contentType,
          instance: null,
          next: async () => queue.shift(),
          abort: () => {},
        };
      }
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      return {
        id,
        status: response.status,
        contentType,
        instance: response.headers.get('baton-instance'),
        async next() {
          for (;;) {
            if (queue.length > 0) return queue.shift();
            let chunk;
            try {
              chunk = await reader.read();
            } catch {
              return undefined;
            }
            if (chunk.done) return undefined;
            const split = splitSseEvents(buffer + chunk.value);
            buffer = split.rest;
            queue.push(...split.messages);
          }
        },
        abort: () => controller.abort(),
      };
    },
  };
}
