/**
 * Building hostile JSON-RPC messages from valid ones: a valid request for a method, a field
 * changed to a wrong type or removed (own properties only, so `__proto__` becomes a real key),
 * and the standard headers that match the result, changed in turn. Shared by
 * test/security/wire.property.test.ts and scripts/fuzz-http.ts.
 */
import fc from 'fast-check';
import type { OutgoingHttpHeaders } from 'node:http';
import {
  base64Sentinel,
  headerValue,
  isSendableHeaderValue,
  META_KEYS,
  metaShape,
  wrongValue,
} from './hostile-inputs.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';

export const isRecord = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether a body field can travel as a header: Node sends only these characters, and its parser
 * answers 431 (plain text) above 16 KiB of headers, before Baton sees the request.
 */
const headerSafe = (value: string) => value.length <= 4096 && isSendableHeaderValue(value);

/** Standard headers that match a message (where its fields can be headers at all). */
export function headersFor(message: unknown): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
  };
  if (!isRecord(message)) return headers;
  const meta = isRecord(message.params) ? message.params._meta : undefined;
  const version = isRecord(meta) ? meta[META_KEYS.protocolVersion] : undefined;
  if (typeof version === 'string' && headerSafe(version)) headers['mcp-protocol-version'] = version;
  if (typeof message.method === 'string' && headerSafe(message.method)) {
    headers['mcp-method'] = message.method;
  }
  const params = isRecord(message.params) ? message.params : {};
  const name = message.method === 'resources/read' ? params.uri : params.name;
  if (typeof name === 'string' && name.length <= 2048) {
    headers['mcp-name'] = isSendableHeaderValue(name) ? name : base64Sentinel(name);
  }
  return headers;
}

export const STANDARD_HEADERS = ['mcp-protocol-version', 'mcp-method', 'mcp-name', 'content-type', 'accept'];
export type HeaderChange =
  | { kind: 'omit'; name: string }
  | { kind: 'set'; name: string; value: string }
  | { kind: 'twice'; name: string; value: string }
  | { kind: 'sentinel'; name: string };

export const headerChange: fc.Arbitrary<HeaderChange> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('omit' as const), name: fc.constantFrom(...STANDARD_HEADERS) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('set' as const),
      name: fc.constantFrom(...STANDARD_HEADERS, 'x-anything', 'authorization', 'cookie', 'x-forwarded-host'),
      value: headerValue,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('twice' as const),
      name: fc.constantFrom(...STANDARD_HEADERS),
      value: headerValue,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('sentinel' as const), name: fc.constantFrom('mcp-name', 'mcp-method') }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('set' as const),
      name: fc.constantFrom('origin', 'host'),
      value: fc.oneof(
        headerValue,
        fc.constantFrom('http://127.0.0.1', 'http://evil.example', 'null', 'localhost', 'evil.example', '[::1]'),
      ),
    }),
  },
);

export function applyHeaderChanges(base: Record<string, string>, changes: HeaderChange[]): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { ...base };
  for (const change of changes) {
    if (change.kind === 'omit') delete headers[change.name];
    else if (change.kind === 'set') headers[change.name] = change.value;
    else if (change.kind === 'twice') headers[change.name] = [String(headers[change.name] ?? ''), change.value];
    else if (typeof headers[change.name] === 'string')
      headers[change.name] = base64Sentinel(headers[change.name] as string);
  }
  return headers;
}

export type Path = Array<string>;
/** Every field of a request a client could get wrong. */
export const PATHS: Path[] = [
  ['jsonrpc'],
  ['id'],
  ['method'],
  ['params'],
  ['params', 'name'],
  ['params', 'uri'],
  ['params', 'arguments'],
  ['params', 'arguments', 'service'],
  ['params', 'arguments', 'version'],
  ['params', 'arguments', 'project'],
  ['params', 'arguments', 'provider'],
  ['params', '_meta'],
  ['params', '_meta', META_KEYS.protocolVersion],
  ['params', '_meta', META_KEYS.clientCapabilities],
  ['params', '_meta', META_KEYS.clientCapabilities, 'elicitation'],
  ['params', '_meta', META_KEYS.clientInfo],
  ['params', '_meta', 'progressToken'],
  ['params', 'requestState'],
  ['params', 'inputResponses'],
  ['params', 'cursor'],
  ['params', 'ref'],
  ['params', 'argument'],
  ['params', 'context'],
  ['result'],
  ['error'],
  ['__proto__'],
  ['params', '__proto__'],
  ['params', 'constructor'],
];

export type FieldChange = { path: Path; value?: unknown; remove?: boolean };
export const fieldChange: fc.Arbitrary<FieldChange> = fc.oneof(
  fc.record({ path: fc.constantFrom(...PATHS), value: wrongValue }),
  fc.record({ path: fc.constantFrom(...PATHS), remove: fc.constant(true) }),
  fc.record({ path: fc.constantFrom(['params', '_meta'] as Path), value: metaShape }),
);

/** Sets or removes a field in place; own properties only, so `__proto__` becomes a real key. */
export function applyFieldChange(message: Record<string, unknown>, change: FieldChange): void {
  let target: unknown = message;
  for (const key of change.path.slice(0, -1)) {
    if (!isRecord(target)) return;
    if (!Object.hasOwn(target, key))
      Object.defineProperty(target, key, { value: {}, enumerable: true, writable: true, configurable: true });
    target = target[key];
  }
  if (!isRecord(target)) return;
  const last = change.path[change.path.length - 1]!;
  if (change.remove) delete target[last];
  else {
    // A copy: the value may be one of fast-check's shared constants (`{}`), and a later change in
    // the same message can write inside it. Written in place, that corrupted the constant for every
    // later run (seen: a cyclic _meta that JSON.stringify refused, failing runs at random seeds).
    const value = change.value === undefined ? undefined : structuredClone(change.value);
    Object.defineProperty(target, last, { value, enumerable: true, writable: true, configurable: true });
  }
}

export const meta = (caps: unknown = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }) => ({
  [META_KEYS.protocolVersion]: PROTOCOL_VERSION,
  [META_KEYS.clientCapabilities]: caps,
  [META_KEYS.clientInfo]: { name: 'wire-property', version: '0' },
});

let nextId = 1;
export function message(method: string, params: Record<string, unknown>, caps?: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta(caps) } };
}
