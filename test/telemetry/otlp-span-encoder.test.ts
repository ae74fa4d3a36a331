/**
 * Baton's OTLP span encoder (server/telemetry/otlp-span-encoder.ts) writes, byte for byte, what
 * the SDK's own protobuf serializer (`@opentelemetry/otlp-transformer`) writes for the same spans:
 * for spans of every shape (attributes of each type, events, links, trace state, remote parents,
 * several resources and scopes), for spans whose length needs several bytes, and with its cache of
 * encoded attributes full.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { OtlpSpanEncoder, type EncodableSpan } from '../../server/telemetry/otlp-span-encoder.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const id = (length: number) => fc.uint8Array({ minLength: length, maxLength: length }).map(hex);
const hrTime = fc.tuple(fc.integer({ min: 0, max: 2 ** 34 }), fc.integer({ min: 0, max: 999_999_999 }));

const scalar = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('tools/call', 'input_required', 'order-pizza'),
  fc.boolean(),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.constantFrom(2 ** 53 + 2, -(2 ** 60), 2 ** 63, -0),
  fc.double(),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(scalar, { maxLength: 4 }),
    fc.uint8Array({ maxLength: 8 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;
const attributes = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('mcp.method.name', 'gen_ai.tool.name', 'baton.round')),
  value,
  { maxKeys: 6 },
);

const context = fc.record({
  traceId: id(16),
  spanId: id(8),
  traceFlags: fc.integer({ min: 0, max: 255 }),
  isRemote: fc.option(fc.boolean(), { nil: undefined }),
  traceState: fc.option(
    fc.string({ maxLength: 20 }).map((text) => ({ serialize: () => text })),
    { nil: undefined },
  ),
});

const resources = [
  { attributes: { 'service.name': 'baton', 'host.name': 'a' } },
  { attributes: { 'service.name': 'other', count: 3 }, schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' },
];
const scopes = [
  { name: 'baton', version: '1.0.0' },
  {
    name: 'host-instrumentation',
    schemaUrl: 'https://example.test/schema',
    attributes: { a: 1 },
    droppedAttributesCount: 2,
  },
  { name: 'bare' },
];

const span: fc.Arbitrary<EncodableSpan> = fc
  .record({
    name: fc.string({ maxLength: 30 }),
    kind: fc.integer({ min: 0, max: 4 }),
    context,
    parent: fc.option(context, { nil: undefined }),
    startTime: hrTime,
    endTime: hrTime,
    status: fc.record({ code: fc.integer({ min: 0, max: 2 }), message: fc.option(fc.string(), { nil: undefined }) }),
    attributes,
    links: fc.array(
      fc.record({
        context,
        attributes: fc.option(attributes, { nil: undefined }),
        droppedAttributesCount: fc.option(fc.nat(5), { nil: undefined }),
      }),
      { maxLength: 2 },
    ),
    events: fc.array(
      fc.record({
        name: fc.string({ maxLength: 20 }),
        time: hrTime,
        attributes: fc.option(attributes, { nil: undefined }),
        droppedAttributesCount: fc.option(fc.nat(5), { nil: undefined }),
      }),
      { maxLength: 3 },
    ),
    dropped: fc.tuple(fc.nat(300), fc.nat(3), fc.nat(3)),
    resource: fc.constantFrom(...resources),
    scope: fc.constantFrom(...scopes),
  })
  .map((s) => ({
    name: s.name,
    kind: s.kind,
    spanContext: () => s.context,
    parentSpanContext: s.parent,
    startTime: s.startTime,
    endTime: s.endTime,
    status: s.status,
    attributes: s.attributes,
    links: s.links,
    events: s.events,
    droppedAttributesCount: s.dropped[0],
    droppedEventsCount: s.dropped[1],
    droppedLinksCount: s.dropped[2],
    resource: s.resource,
    instrumentationScope: s.scope,
  }));

/** What the SDK's own exporter would post for these spans. */
function sdkBytes(spans: readonly EncodableSpan[]): Buffer {
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans as never)!);
}

describe('OTLP span encoder', () => {
  it('writes the bytes the SDK serializer writes, for spans of every shape', () => {
    // One encoder for every run: its cache fills with what earlier runs encoded.
    const encoder = new OtlpSpanEncoder();
    fc.assert(
      fc.property(fc.array(span, { maxLength: 6 }), (spans) => {
        expect(Buffer.from(encoder.encode(spans)).equals(sdkBytes(spans))).to.equal(true);
      }),
      { numRuns: 400 },
    );
  });

  const baton = (index: number, overrides: Partial<EncodableSpan> = {}): EncodableSpan => ({
    name: 'tools/call order-pizza',
    kind: 1,
    spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }),
    parentSpanContext: undefined,
    startTime: [1_765_000_000 + index, 123_456_789],
    endTime: [1_765_000_000 + index, 223_456_789],
    status: { code: 0 },
    attributes: {
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'order-pizza',
      'jsonrpc.request.id': String(index),
      'baton.round': index % 3,
      'baton.round.question_keys': ['size', 'toppings'],
    },
    links: [],
    events: [
      {
        name: 'baton.request_state.sealed',
        time: [1_765_000_000, 5],
        attributes: { 'baton.request_state.size': index },
      },
    ],
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
    resource: resources[0]!,
    instrumentationScope: scopes[0]!,
    ...overrides,
  });

  it('writes the same bytes when it copies an attribute from its cache, and when the cache is full', () => {
    const encoder = new OtlpSpanEncoder();
    // 300 spans, each with a request id and state size never seen before: past the 64 kept per name.
    const spans = Array.from({ length: 300 }, (_, index) => baton(index));
    expect(Buffer.from(encoder.encode(spans)).equals(sdkBytes(spans))).to.equal(true);
    expect(Buffer.from(encoder.encode(spans)).equals(sdkBytes(spans))).to.equal(true);
    // One name, values that print alike but are of other types: each is its own entry.
    const alike = [1, '1', true, 'true', 1.5, '1.5'].map((value, index) =>
      baton(index, { attributes: { 'baton.round': value } }),
    );
    expect(Buffer.from(encoder.encode(alike)).equals(sdkBytes(alike))).to.equal(true);
  });

  it('writes the same bytes for a span, a value and a batch whose lengths take several bytes', () => {
    const long = 'x'.repeat(2 ** 21 + 5);
    const unicode = 'é'.repeat(300) + '🍕';
    const spans = [
      baton(1, { attributes: { long, unicode, list: [unicode, long.slice(0, 20_000)] } }),
      ...Array.from({ length: 2_000 }, (_, index) => baton(index)),
    ];
    const encoded = Buffer.from(new OtlpSpanEncoder().encode(spans));
    expect(encoded.length).to.be.greaterThan(2 ** 21);
    expect(encoded.equals(sdkBytes(spans))).to.equal(true);
  });

  it('writes an empty request for no spans', () => {
    expect(new OtlpSpanEncoder().encode([]).length).to.equal(0);
    expect(sdkBytes([]).length).to.equal(0);
  });
});
