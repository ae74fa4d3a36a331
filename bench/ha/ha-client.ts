/**
 * The high-availability bench's MCP client: JSON-RPC over Baton's real endpoint, on the
 * keep-alive agent the other benches use (bench/load/http-post.ts), with the tasks extension
 * declared. What one task and one single-use round take from a client: create the task, then
 * follow it with `subscriptions/listen` (the stream ends when the task does); ask, then present the
 * sealed state with the answer.
 */
import type http from 'node:http';
import { TASKS_EXTENSION } from '../../server/engine/index.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { keepAliveAgent, post, type PostTarget } from '../load/http-post.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'baton-bench-ha', version: '0.0.0' },
};

/** Methods whose `Mcp-Name` header names the tool or the task (server/http/standard-headers.ts). */
const NAMED: Record<string, 'name' | 'taskId'> = { 'tools/call': 'name', 'tasks/get': 'taskId' };

const ACCEPT = { confirm: { action: 'accept', content: { confirm: true } } };

/** Every JSON-RPC message of a JSON body or an SSE stream. */
export function messagesOf(contentType: string, body: Buffer): any[] {
  const text = body.toString('utf8');
  if (!contentType.includes('text/event-stream')) return text ? [JSON.parse(text)] : [];
  const messages: any[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data) messages.push(JSON.parse(data));
  }
  return messages;
}

export class HaClient {
  readonly #agent: http.Agent;
  readonly #target: PostTarget;
  #nextId = 1;

  constructor(url: string, sockets: number) {
    const { hostname, port, pathname } = new URL(url);
    this.#target = { hostname, port: Number(port), path: pathname };
    this.#agent = keepAliveAgent(sockets);
  }

  /** One request; every message of its answer, the response last. Throws on an HTTP error. */
  async send(method: string, params: Record<string, unknown>, timeoutMs = 30_000): Promise<any[]> {
    const id = this.#nextId++;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL_VERSION,
      'mcp-method': method,
    };
    const named = NAMED[method];
    if (named) headers['mcp-name'] = String(params[named]);
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }));
    const reply = await post(this.#agent, this.#target, headers, body, timeoutMs);
    if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${reply.body.toString('utf8').slice(0, 200)}`);
    return messagesOf(reply.contentType, reply.body);
  }

  async request(method: string, params: Record<string, unknown>, timeoutMs?: number): Promise<any> {
    const messages = await this.send(method, params, timeoutMs);
    const response = messages.find((message) => 'result' in message || 'error' in message);
    if (!response || response.error) throw new Error(`${method}: ${JSON.stringify(response?.error ?? 'no answer')}`);
    return response.result;
  }

  /** Creates a task of `tool`; its id. */
  async createTask(tool: string): Promise<string> {
    const result = await this.request('tools/call', { name: tool, arguments: {} });
    if (typeof result?.taskId !== 'string') throw new Error(`no task: ${JSON.stringify(result).slice(0, 200)}`);
    return result.taskId;
  }

  /** Follows a task until it ends (subscriptions/listen); its last state. */
  async followToEnd(taskId: string): Promise<any> {
    const messages = await this.send('subscriptions/listen', { notifications: { taskIds: [taskId] } });
    return messages.filter((message) => message.method === 'notifications/tasks').at(-1)?.params;
  }

  async getTask(taskId: string): Promise<any> {
    return this.request('tasks/get', { taskId }, 5000);
  }

  /** The first round of a single-use flow: the sealed state to present. */
  async ask(tool: string): Promise<string> {
    const result = await this.request('tools/call', { name: tool, arguments: {} });
    if (typeof result?.requestState !== 'string') throw new Error(`no question: ${JSON.stringify(result)}`);
    return result.requestState;
  }

  /** The round that consumes the single-use state: true when it ran to its result. */
  async confirm(tool: string, requestState: string, timeoutMs?: number): Promise<boolean> {
    const result = await this.request(
      'tools/call',
      { name: tool, arguments: {}, requestState, inputResponses: ACCEPT },
      timeoutMs,
    );
    return result?.isError !== true && result?.resultType !== 'input_required' && !result?.requestState;
  }

  close(): void {
    this.#agent.destroy();
  }
}
