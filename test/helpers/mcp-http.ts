/**
 * A deliberately thin raw HTTP client for wire-level tests: it sends exactly the headers and body
 * a test asks for (the official client is used elsewhere for what real clients do).
 */
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';

export interface RawResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export function requestMeta(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'baton-tests', version: '0.0.0' },
    ...extra,
  };
}

/** The standard headers a conformant client sends for a message. */
export function standardHeaders(message: { method?: string; params?: Record<string, any> }): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
  };
  if (message.method) headers['mcp-method'] = message.method;
  const name =
    message.method === 'resources/read'
      ? message.params?.uri
      : message.method?.startsWith('tasks/')
        ? message.params?.taskId
        : message.params?.name;
  const named = ['tools/call', 'prompts/get', 'resources/read', 'tasks/get', 'tasks/update', 'tasks/cancel'];
  if (typeof name === 'string' && named.includes(message.method!)) {
    headers['mcp-name'] = name;
  }
  return headers;
}

export async function postRaw(url: string, body: string, headers: Record<string, string>): Promise<RawResponse> {
  const response = await fetch(url, { method: 'POST', body, headers });
  const text = await response.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

let nextId = 1;

/** Sends a request with conformant headers and `_meta`; `overrideHeaders` replaces or removes (undefined) headers. */
export async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  options: {
    capabilities?: Record<string, unknown>;
    headers?: Record<string, string | undefined>;
    id?: string | number;
  } = {},
): Promise<RawResponse> {
  const message = {
    jsonrpc: '2.0',
    id: options.id ?? nextId++,
    method,
    params: { ...params, _meta: requestMeta(options.capabilities ?? { elicitation: {} }) },
  };
  const headers: Record<string, string> = standardHeaders(message);
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  return postRaw(url, JSON.stringify(message), headers);
}

/** Calls a tool; pass the previous round's result to continue a flow with answers. */
export async function callTool(
  url: string,
  name: string,
  args: Record<string, unknown>,
  round: { requestState?: unknown; inputResponses?: unknown } = {},
  options: Parameters<typeof rpc>[3] = {},
): Promise<RawResponse> {
  return rpc(url, 'tools/call', { name, arguments: args, ...round }, options);
}
