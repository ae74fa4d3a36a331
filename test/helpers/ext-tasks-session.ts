/**
 * The official requester library for tasks (`@modelcontextprotocol/ext-tasks`) on top of the
 * official client, connected the way docs/clients.md shows: the client pinned to 2026-07-28, and
 * the library's two options for that revision, `rawDispatch` (the SDK's own codecs refuse a
 * `resultType: "task"`, so task traffic goes out as plain JSON-RPC over HTTP) and
 * `v2RequestFraming` (the `_meta` every such request carries).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type ApplicationInputHandler,
  type RawClientDispatch,
  type TaskEnabledSession,
} from '@modelcontextprotocol/ext-tasks/client';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';

const CLIENT_INFO = { name: 'ext-tasks-test', version: '1.0.0' };
const CAPABILITIES = { elicitation: {} };

/** One JSON-RPC request per POST, with the standard headers; the answer is JSON or an SSE stream. */
export function fetchDispatch(url: string): RawClientDispatch {
  let nextId = 0;
  return async (request, options = {}) => {
    const message: Record<string, unknown> = { jsonrpc: '2.0', id: `ext-tasks-${++nextId}`, ...(request as object) };
    const params = (message.params ?? {}) as Record<string, unknown>;
    const name = message.method === 'tools/call' ? params.name : params.taskId;
    const headers = new Headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL_VERSION,
      'mcp-method': String(message.method),
    });
    if (typeof name === 'string') headers.set('mcp-name', name);
    // The library's own headers (it sets Mcp-Name on task requests) replace ours, whatever their case.
    for (const [header, value] of Object.entries(options.context?.headers ?? {})) headers.set(header, value);
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(message),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const text = await response.text();
    const reply = response.headers.get('content-type')?.startsWith('text/event-stream')
      ? text
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => JSON.parse(line.slice(6)))
          .find((event) => event.id === message.id)
      : JSON.parse(text);
    return reply.error ? { kind: 'error', error: reply.error } : { kind: 'result', result: reply.result };
  };
}

export interface ExtTasksSession {
  client: Client;
  session: TaskEnabledSession;
  close(): Promise<void>;
}

/** A connected client and its task session; `onInputRequest` answers the tasks' questions. */
export async function openExtTasksSession(
  url: string,
  onInputRequest?: ApplicationInputHandler['handle'],
): Promise<ExtTasksSession> {
  const client = new Client(CLIENT_INFO, {
    capabilities: CAPABILITIES,
    versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const session = createTaskSessionFromClient(client, {
    // Scopes serialized task references: the same server, the same id, in every session.
    endpointId: url,
    rawDispatch: fetchDispatch(url),
    v2RequestFraming: { protocolVersion: PROTOCOL_VERSION, clientInfo: CLIENT_INFO, clientCapabilities: CAPABILITIES },
    ...(onInputRequest ? { onInputRequest } : {}),
  });
  return {
    client,
    session,
    close: async () => {
      await session.close();
      await client.close();
    },
  };
}
