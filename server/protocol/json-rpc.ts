/**
 * JSON-RPC 2.0 framing for MCP 2026-07-28: one request or notification per message, no batches,
 * ids that are strings or integers (never null).
 */
import { ErrorCode } from './error-catalogue.js';
import { checkJsonShape } from './json-limits.js';
import { ProtocolError } from './protocol-error.js';

export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}
export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Record<string, unknown>;
}
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id?: RequestId;
  error: { code: number; message: string; data?: unknown };
}
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

/** The id of a message we could not accept, when it can still be read, so the error echoes it. */
export function readableId(message: unknown): RequestId | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const id = (message as { id?: unknown }).id;
  return isRequestId(id) ? id : undefined;
}

export function parseJson(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ProtocolError(ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
  }
  // Valid JSON only: a parse error stays -32700 whatever its shape.
  try {
    checkJsonShape(text);
  } catch (error) {
    throw (error as ProtocolError).answering(readableId(parsed));
  }
  return keepEnvelope(parsed);
}

/**
 * Keeps only what a message is judged on, so whatever else a client sent beside `params` is not
 * held while the request runs. Batches keep their form (to be refused), not their contents.
 */
function keepEnvelope(message: unknown): unknown {
  if (Array.isArray(message)) return [];
  if (typeof message !== 'object' || message === null) return message;
  const m = message as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const key of ['jsonrpc', 'id', 'method', 'params'] as const) if (key in m) kept[key] = m[key];
  // Only their presence matters: a client must not send responses.
  if ('result' in m) kept.result = null;
  if ('error' in m) kept.error = null;
  return kept;
}

/** Validates the envelope; returns a request or a notification (no id), or throws -32600. */
export function toIncomingMessage(message: unknown): JsonRpcRequest | JsonRpcNotification {
  const invalid = (why: string) => new ProtocolError(ErrorCode.InvalidRequest, `Invalid Request: ${why}`);
  if (Array.isArray(message)) throw invalid('batches are not supported; send one message per request');
  if (typeof message !== 'object' || message === null) throw invalid('the body must be a JSON-RPC object');
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') throw invalid('jsonrpc must be "2.0"');
  if ('result' in m || 'error' in m) throw invalid('clients must not send responses to the server');
  if (typeof m.method !== 'string' || m.method.length === 0) throw invalid('method must be a non-empty string');
  if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params))) {
    throw invalid('params must be an object');
  }
  if ('id' in m) {
    if (!isRequestId(m.id)) throw invalid('id must be a string or an integer');
    return m as unknown as JsonRpcRequest;
  }
  return m as unknown as JsonRpcNotification;
}

export function resultResponse(id: RequestId, result: Record<string, unknown>): JsonRpcResultResponse {
  return { jsonrpc: '2.0', id, result };
}

export function errorResponse(id: RequestId | undefined, error: ProtocolError): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error: error.toJSON() };
}
