/**
 * Reads newline-delimited JSON-RPC from a stream (a stdio server's stdout, in-process or a child
 * process) for raw stdio tests: every line must be one JSON message, and tests wait for the
 * message they expect instead of sleeping.
 */
import type { Readable, Writable } from 'node:stream';
import { requestMeta } from './mcp-http.js';

export type JsonMessage = Record<string, any>;

export class JsonLines {
  readonly messages: JsonMessage[] = [];
  /** Lines that were not a JSON object: each one is a transport bug (stdout must carry only MCP). */
  readonly garbage: string[] = [];
  #rest = '';
  #waiters = new Set<() => void>();

  constructor(stream: Readable) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (this.#rest + chunk).split('\n');
      this.#rest = lines.pop()!;
      for (const line of lines) this.#take(line);
      for (const wake of this.#waiters) wake();
    });
  }

  #take(line: string): void {
    try {
      const message = JSON.parse(line);
      if (typeof message === 'object' && message !== null && !Array.isArray(message)) this.messages.push(message);
      else this.garbage.push(line);
    } catch {
      this.garbage.push(line);
    }
  }

  /** The messages with this id (responses). */
  withId(id: string | number): JsonMessage[] {
    return this.messages.filter((message) => message.id === id);
  }

  /** Resolves with the first message matching `predicate`, waiting up to `timeoutMs`. */
  waitFor(predicate: (message: JsonMessage) => boolean, timeoutMs = 5000): Promise<JsonMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.messages.find(predicate);
        if (!found) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`));
      }, timeoutMs);
      const wake = () => void check();
      const cleanup = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
      };
      this.#waiters.add(wake);
      check();
    });
  }

  /** The response to request `id`. */
  response(id: string | number, timeoutMs?: number): Promise<JsonMessage> {
    return this.waitFor((message) => message.id === id && ('result' in message || 'error' in message), timeoutMs);
  }
}

/** Writes one message as one line. */
export function sendLine(stream: Writable, message: unknown): void {
  stream.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
}

/** A modern request: `params._meta` carries the protocol version and the capabilities. */
export function request(
  id: string | number,
  method: string,
  params: Record<string, unknown> = {},
  options: { capabilities?: Record<string, unknown>; meta?: Record<string, unknown> } = {},
) {
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: requestMeta(options.capabilities ?? { elicitation: {} }, options.meta) },
  };
}

export function cancelled(requestId: string | number) {
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'test' } };
}
