/**
 * Attacks at the JSON-RPC level: wrong types in every field, arbitrary JSON, random methods and
 * `_meta`, deep nesting, huge strings around the body limit, invalid UTF-8 and wrong content
 * types. Every one is well-framed HTTP to POST /mcp, so every answer must be JSON-RPC.
 */
import fc from 'fast-check';
import type { OutgoingHttpHeaders } from 'node:http';
import { gzipSync, deflateRawSync, brotliCompressSync } from 'node:zlib';
import { deepArrayText, metaShape, methodName } from '../../test/helpers/hostile-inputs.js';
import {
  applyFieldChange,
  applyHeaderChanges,
  fieldChange,
  headerChange,
  headersFor,
  message,
  PATHS,
} from '../../test/helpers/hostile-messages.js';
import { mcpRequest, type Attack } from './attack.js';
import { buildRequest } from './raw-http.js';

export const BODY_LIMIT = 1024 * 1024;
const RELEASE_ARGS = { service: 'billing', version: '2.4.0' };

/** Valid requests for every method and kind of flow the fuzzed server serves. */
export function templates(): Array<Record<string, unknown>> {
  return [
    message('tools/call', { name: 'release', arguments: RELEASE_ARGS }),
    message('tools/call', { name: 'provision-database', arguments: { project: 'fuzz' } }),
    message('tools/call', { name: 'connect-payments', arguments: { provider: 'stripe' } }),
    message('tools/call', { name: 'test_simple_text', arguments: {} }),
    message('tools/call', { name: 'json_schema_2020_12_tool', arguments: { contactMethod: 'email', email: 'a@b.c' } }),
    message('tools/call', { name: 'test_input_required_result_multiple_inputs', arguments: {} }),
    message('tools/call', { name: 'test_input_required_result_sampling', arguments: {} }),
    message('prompts/get', { name: 'test_simple_prompt', arguments: {} }),
    message('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } }),
    message('resources/read', { uri: 'test://static-text' }),
    message('resources/read', { uri: 'test://template/42/data' }),
    message('tools/list', {}),
    message('server/discover', {}),
    message('prompts/list', {}),
    message('resources/templates/list', {}),
    message('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 't' },
    }),
  ];
}

/** Header objects as Node would send them, as ordered pairs (an array value repeats the header). */
function pairs(headers: OutgoingHttpHeaders): Array<[string, string]> {
  return Object.entries(headers).flatMap(([name, value]) =>
    Array.isArray(value) ? value.map((v) => [name, String(v)] as [string, string]) : [[name, String(value)]],
  );
}

const sample = <T>(arb: fc.Arbitrary<T>, count: number, seed: number) =>
  count > 0 ? fc.sample(arb, { numRuns: count, seed }) : [];

export function wrongTypes(port: number, count: number, seed: number): Attack[] {
  const arb = fc.tuple(
    fc.constantFrom(...templates()),
    fc.array(fieldChange, { minLength: 1, maxLength: 3 }),
    fc.array(headerChange, { maxLength: 2 }),
  );
  return sample(arb, count, seed).map(([template, changes, headerChanges]) => {
    const mutated = structuredClone(template);
    for (const change of changes) applyFieldChange(mutated, change);
    const body = JSON.stringify(mutated);
    const headers = applyHeaderChanges(headersFor(mutated), headerChanges);
    return {
      label: `${String(template.method)}: ${changes.map((c) => `${c.remove ? '-' : ''}${c.path.join('.')}`).join(', ')}`,
      bytes: buildRequest(port, { headers: pairs(headers), body }),
      expectJson: true,
      noEffect: true,
    };
  });
}

export function arbitraryJson(port: number, count: number, seed: number): Attack[] {
  const body = fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
    fc.string({ maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.constantFrom('', ' ', '{', '}', '[]', '[{}]', 'null', 'true', '"x"', '{"jsonrpc":"2.0"}', '\uFEFF{}', 'NaN'),
  );
  return sample(body, count, seed).map((text) => ({
    label: `body ${JSON.stringify(text.slice(0, 40))}`,
    bytes: mcpRequest(port, text),
    expectJson: true,
  }));
}

export function methodsAndMeta(port: number, count: number, seed: number): Attack[] {
  const arb = fc.tuple(methodName, fc.option(metaShape, { freq: 2 }), fc.constantFrom(...templates()));
  return sample(arb, count, seed).map(([method, meta, template]) => {
    const mutated = structuredClone(template);
    mutated.method = method;
    if (meta !== null) applyFieldChange(mutated, { path: ['params', '_meta'], value: meta });
    return {
      label: `method ${JSON.stringify(method.slice(0, 40))}${meta === null ? '' : ' with random _meta'}`,
      bytes: mcpRequest(port, JSON.stringify(mutated)),
      expectJson: true,
    };
  });
}

const PLACEHOLDER = '__fuzz_placeholder__';

/** A template with one field replaced by raw JSON text (text too deep or too big to stringify). */
function withRawField(template: Record<string, unknown>, path: string[], raw: string | Buffer): Buffer {
  const mutated = structuredClone(template);
  applyFieldChange(mutated, { path, value: PLACEHOLDER });
  const [before, after] = JSON.stringify(mutated).split(`"${PLACEHOLDER}"`) as [string, string | undefined];
  return Buffer.concat([Buffer.from(before), Buffer.from(raw as Buffer), Buffer.from(after ?? '')]);
}

export function deepNesting(port: number, count: number, seed: number): Attack[] {
  const arb = fc.tuple(
    fc.constantFrom(...templates()),
    fc.constantFrom(...PATHS.filter((p) => p[0] !== '__proto__'), ['params', 'arguments', 'deep']),
    fc.constantFrom(100, 1_000, 1_000, 10_000, 10_000, 100_000, 100_000, 400_000),
    fc.constantFrom('array', 'object', 'wide-array', 'wide-object'),
  );
  return sample(arb, count, seed).map(([template, path, size, shape]) => {
    const raw =
      shape === 'array'
        ? deepArrayText(size)
        : shape === 'object'
          ? `${'{"a":'.repeat(size)}0${'}'.repeat(size)}`
          : shape === 'wide-array'
            ? `[${'0,'.repeat(size)}0]`
            : `{${Array.from({ length: Math.min(size, 50_000) }, (_, i) => `"k${i}":0`).join(',')}}`;
    return {
      label: `${shape} ${size} at ${path.join('.')} of ${String(template.method)}`,
      bytes: mcpRequest(port, withRawField(template, path, raw)),
      expectJson: true,
      noEffect: true,
    };
  });
}

const HUGE_PLACES: string[][] = [
  ['params', 'arguments', 'service'],
  ['params', 'requestState'],
  ['params', 'inputResponses', 'window', 'content', 'window'],
  ['method'],
  ['id'],
  ['params', '_meta', 'io.modelcontextprotocol/clientInfo', 'name'],
  ['params', 'name'],
];

/** Bodies of exactly these sizes around the 1 MiB limit, the string filling what is left. */
export function hugeStrings(port: number, count: number, seed: number): Attack[] {
  const sizes = [BODY_LIMIT - 1, BODY_LIMIT, BODY_LIMIT + 1, 2 * BODY_LIMIT, 8 * BODY_LIMIT];
  const framings = ['length', 'chunked'] as const;
  const fills = ['x', 'é', '\u{1F600}'];
  const arb = fc.tuple(
    fc.constantFrom(...sizes),
    fc.constantFrom(...HUGE_PLACES),
    fc.constantFrom(...framings),
    fc.constantFrom(...fills),
  );
  const release = templates()[0]!;
  return sample(arb, count, seed).map(([size, path, framing, fill]) => {
    const empty = withRawField(release, path, '""');
    // `empty` already holds the two quotes; what is left is the string's content.
    const room = Math.max(0, size - empty.length);
    const unit = Buffer.from(fill);
    const filled = Buffer.alloc(room, 'x');
    // Multi-byte fill where it fits whole; ASCII pads the rest, so the body is exactly `size` bytes.
    for (let at = 0; at + unit.length <= room; at += unit.length) unit.copy(filled, at);
    const body = withRawField(release, path, Buffer.concat([Buffer.from('"'), filled, Buffer.from('"')]));
    const over = body.length > BODY_LIMIT;
    const headers = Object.entries(headersFor(JSON.parse(empty.toString()))).map(
      ([n, v]) => [n, String(v)] as [string, string],
    );
    return {
      label: `${body.length} bytes (${over ? 'over' : 'within'} the limit, ${framing}) in ${path.join('.')}`,
      bytes: buildRequest(port, { headers, body, ...(framing === 'chunked' ? { chunkSize: 64 * 1024 } : {}) }),
      expectJson: true,
      mayDrop: over,
      timeoutMs: 20_000,
    };
  });
}

const INVALID_UTF8: Array<[string, number[]]> = [
  ['0xFF', [0xff]],
  ['overlong slash', [0xc0, 0xaf]],
  ['surrogate', [0xed, 0xa0, 0x80]],
  ['truncated 3-byte', [0xe2, 0x82]],
  ['lone continuation', [0x80, 0xbf]],
  ['5-byte form', [0xf8, 0x88, 0x80, 0x80, 0x80]],
  ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ['FE FF', [0xfe, 0xff]],
  ['NUL', [0x00]],
];

export function invalidUtf8(port: number, count: number, seed: number): Attack[] {
  const places = [...HUGE_PLACES, ['params', 'inputResponses', 'confirm'], ['params', 'arguments']];
  const arb = fc.tuple(
    fc.constantFrom(...templates()),
    fc.constantFrom(...INVALID_UTF8),
    fc.constantFrom('in a string', 'outside strings', 'at the start', 'at the end', 'in a header', 'in the URL'),
    fc.constantFrom(...places),
  );
  return sample(arb, count, seed).map(([template, [name, bytes], where, path]) => {
    const bad = Buffer.from(bytes);
    const label = `${name} ${where}`;
    const json = Buffer.from(JSON.stringify(template));
    const headers = Object.entries(headersFor(template)).map(([n, v]) => [n, String(v)] as [string, string]);
    switch (where) {
      case 'in a string':
        return {
          label: `${label} at ${path.join('.')}`,
          bytes: mcpRequest(
            port,
            withRawField(template, path, Buffer.concat([Buffer.from('"a'), bad, Buffer.from('b"')])),
          ),
          expectJson: true,
        };
      case 'outside strings':
        return {
          label,
          bytes: mcpRequest(port, Buffer.concat([json.subarray(0, 1), bad, json.subarray(1)])),
          expectJson: true,
        };
      case 'at the start':
        return { label, bytes: mcpRequest(port, Buffer.concat([bad, json])), expectJson: true };
      case 'at the end':
        return { label, bytes: mcpRequest(port, Buffer.concat([json, bad])), expectJson: true };
      case 'in a header':
        return {
          label,
          bytes: buildRequest(port, {
            headers: headers.map(([n, v]) => [n, /^mcp-/i.test(n) ? v + bad.toString('latin1') : v]),
            body: json,
          }),
          // Node's parser refuses a NUL in a header with a bare 400 before Baton sees it.
          expectJson: !bytes.includes(0x00),
          mayDrop: bytes.includes(0x00),
        };
      default:
        return {
          label,
          bytes: buildRequest(port, { path: `/mcp?x=${bad.toString('latin1')}`, headers, body: json }),
          expectJson: false,
          mayDrop: true,
        };
    }
  });
}

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/json; charset=utf-16le',
  'application/json; charset=latin1',
  'application/xml',
  '*/*',
  'application/json, text/plain',
  `application/json; ${'p=1;'.repeat(1000)}`,
  '',
];

export function contentTypes(port: number, count: number, seed: number): Attack[] {
  const encodings = ['identity', 'utf16', 'form', 'multipart', 'gzip', 'deflate', 'br'] as const;
  const arb = fc.tuple(
    fc.constantFrom(...templates()),
    fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }),
    fc.constantFrom(...encodings),
    fc.constantFrom('application/json', 'text/event-stream', 'image/png', '', undefined),
  );
  return sample(arb, count, seed).map(([template, contentType, encoding, accept]) => {
    const json = JSON.stringify(template);
    const body = {
      identity: Buffer.from(json),
      utf16: Buffer.from(json, 'utf16le'),
      form: Buffer.from(`payload=${encodeURIComponent(json)}`),
      multipart: Buffer.from(`--fuzz\r\nContent-Disposition: form-data; name="m"\r\n\r\n${json}\r\n--fuzz--\r\n`),
      gzip: gzipSync(json),
      deflate: deflateRawSync(json),
      br: brotliCompressSync(json),
    }[encoding];
    const headers = Object.entries(headersFor(template))
      .filter(([n]) => !/^(content-type|accept)$/i.test(n))
      .map(([n, v]) => [n, String(v)] as [string, string]);
    if (contentType !== undefined) headers.push(['Content-Type', contentType]);
    if (accept !== undefined) headers.push(['Accept', accept]);
    if (['gzip', 'deflate', 'br'].includes(encoding)) headers.push(['Content-Encoding', encoding]);
    return {
      label: `${contentType ?? 'no content-type'} / ${encoding} body / accept ${accept ?? 'none'}`,
      bytes: buildRequest(port, { headers, body }),
      expectJson: true,
    };
  });
}
