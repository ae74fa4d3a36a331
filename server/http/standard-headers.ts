/**
 * The standard request headers of Streamable HTTP (spec, transports/streamable-http "Server
 * Validation"): MCP-Protocol-Version, Mcp-Method and, for tools/call, prompts/get and
 * resources/read (and tasks/get, tasks/update, tasks/cancel: the task id, per the tasks extension's
 * "Routing Headers"), Mcp-Name. Each must be present and equal the body; values are case-sensitive,
 * and a `=?base64?…?=` value is decoded before comparing. For tools/call, every parameter the
 * tool marks with `x-mcp-header` and the body holds a value for must come as a matching
 * `Mcp-Param-{Name}` header ("Custom Headers from Tool Parameters"). Any failure is -32020 with
 * HTTP 400.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { HeaderParam } from '../engine/index.js';
import { headerMatchesValue, headerParamValue } from './header-params.js';
import { headerMismatch, type JsonRpcRequest, type RequestMeta } from '../protocol/index.js';

const NAME_SOURCE: Record<string, 'name' | 'uri' | 'taskId'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes the Base64 sentinel form; plain values pass through. Undefined means invalid. The form
 * is both markers, `=?base64?` and `?=`: a value with only one of them is a literal (a client
 * must encode a value that looks like the whole form, never one that merely starts like it).
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith('=?base64?') && value.endsWith('?=') && value.length >= 11)) return value;
  const match = SENTINEL.exec(value);
  if (!match || match[1]!.length % 4 !== 0) return undefined;
  try {
    return utf8.decode(Buffer.from(match[1]!, 'base64'));
  } catch {
    return undefined;
  }
}

/** RFC 9110 field values as the spec allows them here: visible ASCII, space and tab. */
const VALID_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * One header's value, or a -32020 when it has characters a header may not carry (Node hands bytes
 * above 0x7F over as Latin-1, so `caf\xE9` would otherwise equal a body's "café"); non-ASCII
 * values travel in the `=?base64?…?=` form.
 */
function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (value !== undefined && !VALID_VALUE.test(value)) {
    throw headerMismatch(`Header mismatch: ${name} holds characters outside visible ASCII; send them base64-encoded`);
  }
  return value;
}

/** A tool's `x-mcp-header` parameters, by tool name (empty for a tool without any, or no tool). */
export type HeaderParamsOf = (toolName: string) => readonly HeaderParam[];

export function standardHeaderCheck(headers: IncomingHttpHeaders, headerParamsOf?: HeaderParamsOf) {
  return (request: JsonRpcRequest, meta: RequestMeta): void => {
    const version = single(headers, 'mcp-protocol-version');
    if (version === undefined) throw headerMismatch('Header mismatch: MCP-Protocol-Version header is required');
    if (version !== meta.protocolVersion) {
      throw headerMismatch('Header mismatch: MCP-Protocol-Version does not match _meta protocolVersion');
    }
    const method = single(headers, 'mcp-method');
    if (method === undefined) throw headerMismatch('Header mismatch: Mcp-Method header is required');
    if (method !== request.method) throw headerMismatch('Header mismatch: Mcp-Method does not match the method');
    const source = NAME_SOURCE[request.method];
    if (!source) return;
    const expected = request.params?.[source];
    // A body without the name fails the params check with -32602; only compare real values.
    if (typeof expected !== 'string') return;
    const raw = single(headers, 'mcp-name');
    if (raw === undefined) throw headerMismatch('Header mismatch: Mcp-Name header is required');
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) throw headerMismatch('Header mismatch: Mcp-Name has an invalid base64 value');
    if (decoded !== expected) throw headerMismatch(`Header mismatch: Mcp-Name does not match params.${source}`);
    if (request.method === 'tools/call' && headerParamsOf) {
      checkParamHeaders(headers, headerParamsOf(expected), request.params?.arguments);
    }
  };
}

function checkParamHeaders(headers: IncomingHttpHeaders, params: readonly HeaderParam[], args: unknown): void {
  for (const param of params) {
    const value = headerParamValue(args, param);
    // No value (absent or null): the client omits the header and nothing is expected.
    if (value === undefined || value === null) continue;
    const header = `Mcp-Param-${param.name}`;
    const raw = single(headers, header.toLowerCase());
    if (raw === undefined)
      throw headerMismatch(
        `Header mismatch: ${header} header is required (arguments.${param.path.join('.')} has a value)`,
      );
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) throw headerMismatch(`Header mismatch: ${header} has an invalid base64 value`);
    if (!headerMatchesValue(decoded, value)) {
      throw headerMismatch(`Header mismatch: ${header} does not match arguments.${param.path.join('.')}`);
    }
  }
}
