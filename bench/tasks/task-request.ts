/**
 * One JSON-RPC request of the task benchmark, as an MCP client of 2026-07-28 sends it (headers,
 * `_meta` with the tasks extension), over the keep-alive agent the MRTR load generator uses
 * (bench/load/): a client far cheaper than fetch, whose streams and promises took more of this
 * process's CPU than Baton's task code when the bench used it. Baton's creates and gets, and the
 * floor behind bare Koa, send the very same bytes.
 */
import type http from 'node:http';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { TASKS_EXTENSION } from '../../server/engine/index.js';
import { post, type PostTarget } from '../load/http-post.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: {},
    extensions: { [TASKS_EXTENSION]: {} },
  },
};

export interface TaskReply {
  result?: Record<string, unknown>;
  error?: unknown;
}

export async function postTaskRequest(
  agent: http.Agent,
  target: PostTarget,
  id: number,
  method: string,
  params: Record<string, unknown>,
  name: string,
): Promise<TaskReply> {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
    'mcp-method': method,
    'mcp-name': name,
  };
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }));
  const reply = await post(agent, target, headers, body, 30_000);
  return JSON.parse(reply.body.toString('utf8')) as TaskReply;
}

/** Where to post: the host, port and path of an endpoint's URL. */
export function postTarget(url: string): PostTarget {
  const { hostname, port, pathname } = new URL(url);
  return { hostname, port: Number(port), path: pathname };
}
