/**
 * The HTTP client behind `baton call`, as one more `send` of the conversation runner
 * (server/simulation): each request as a conformant 2026-07-28 client sends it (spec,
 * transports/streamable-http: MCP-Protocol-Version and Mcp-Method on every request; Mcp-Name with
 * the tool's name and the `Mcp-Param-*` headers of its `x-mcp-header` parameters on `tools/call`,
 * with the task id on `tasks/*`; `_meta` with the protocol version and client capabilities in
 * every request), reading a JSON or an SSE response and handing each notification on as it arrives.
 */
import { TASKS_EXTENSION, type HeaderParam } from '../engine/index.js';
import { headerParamValue } from '../http/header-params.js';
import { PROTOCOL_VERSION } from '../protocol/index.js';
import { requestEnvelope, type ClientIdentity, type Exchange } from '../simulation/index.js';

/**
 * What `baton call` can answer: both elicitation modes, the deprecated sampling and roots, and
 * tasks (it follows a task to its end, call-task.ts).
 */
export const CALL_CAPABILITIES = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: {},
  extensions: { [TASKS_EXTENSION]: {} },
};

const CALL_CLIENT: ClientIdentity = { capabilities: CALL_CAPABILITIES, info: { name: 'baton-call', version: '1.0.0' } };

export interface JsonRpcAnswer {
  jsonrpc: '2.0';
  id?: string | number | null;
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: unknown };
}

export interface CallClientOptions {
  url: string;
  /** Sent as `Authorization: Bearer …` when set. */
  token?: string | undefined;
  /** The tool's `x-mcp-header` parameters (from tools/list). */
  headerParams?: readonly HeaderParam[];
  onNotification?: (message: { method: string; params?: Record<string, any> }) => void;
}

/** A header value as the spec carries it: plain visible ASCII, else the `=?base64?…?=` form. */
export function mcpHeaderValue(value: string | number | boolean): string {
  const text = String(value);
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(text);
  const looksEncoded = text.startsWith('=?base64?') && text.endsWith('?=');
  if (text === '' || (plain && !looksEncoded)) return text;
  return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

function parseEvent(block: string): unknown {
  const data = block
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
  return data ? JSON.parse(data) : undefined;
}

export class CallClient {
  #nextId = 1;
  readonly #options: CallClientOptions;

  constructor(options: CallClientOptions) {
    this.#options = options;
  }

  /** One request and the response it got (the runner's `send`); `tools/call` streams progress. */
  readonly send = async (method: string, params: Record<string, unknown>): Promise<Exchange> => {
    if (method === 'tools/call') return this.#send(method, params, this.#toolHeaders(params), true);
    // tasks/get, tasks/update, tasks/cancel: Mcp-Name is the task id (tasks.md, "HTTP Headers").
    if (method.startsWith('tasks/') && typeof params.taskId === 'string') {
      return this.#send(method, params, { 'mcp-name': params.taskId });
    }
    return this.#send(method, params, {});
  };

  /** Any request but tools/call (tools/list): no name header, no notifications expected. */
  async request(method: string, params: Record<string, unknown> = {}): Promise<JsonRpcAnswer> {
    return (await this.#send(method, params, {})).response as JsonRpcAnswer;
  }

  #toolHeaders(params: Record<string, unknown>): Record<string, string> {
    const headers: Record<string, string> = { 'mcp-name': String(params.name) };
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    for (const param of this.#options.headerParams ?? []) {
      const value = headerParamValue(args, param);
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        headers[`mcp-param-${param.name.toLowerCase()}`] = mcpHeaderValue(value);
      }
    }
    return headers;
  }

  async #send(
    method: string,
    params: Record<string, unknown>,
    extraHeaders: Record<string, string>,
    progress = false,
  ): Promise<Exchange> {
    const id = this.#nextId++;
    const request = requestEnvelope(id, method, params, CALL_CLIENT, progress ? { progressToken: `call-${id}` } : {});
    const response = await fetch(this.#options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': PROTOCOL_VERSION,
        'mcp-method': method,
        ...extraHeaders,
        ...(this.#options.token ? { authorization: `Bearer ${this.#options.token}` } : {}),
      },
      body: JSON.stringify(request),
    });
    return { request, response: (await this.#read(response, id)) as Exchange['response'] };
  }

  async #read(response: Response, id: number): Promise<JsonRpcAnswer> {
    if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream') && response.body) {
      return this.#readEvents(response.body, id, response.status);
    }
    const text = await response.text();
    try {
      return JSON.parse(text) as JsonRpcAnswer;
    } catch {
      return { jsonrpc: '2.0', id, error: { code: -32603, message: `HTTP ${response.status}: ${text.slice(0, 200)}` } };
    }
  }

  async #readEvents(body: ReadableStream<Uint8Array>, id: number, status: number): Promise<JsonRpcAnswer> {
    const decoder = new TextDecoder();
    let buffer = '';
    let answer: JsonRpcAnswer | undefined;
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = parseEvent(buffer.slice(0, end)) as (JsonRpcAnswer & { method?: string }) | undefined;
        buffer = buffer.slice(end + 2);
        if (message?.method) this.#options.onNotification?.(message as { method: string });
        else if (message && message.id === id) answer = message;
      }
    }
    return (
      answer ?? { jsonrpc: '2.0', id, error: { code: -32603, message: `HTTP ${status}: the stream ended unanswered` } }
    );
  }
}
