/**
 * Ended spans as an OTLP `ExportTraceServiceRequest` in protobuf, byte for byte what
 * `@opentelemetry/otlp-transformer`'s ProtobufTraceSerializer writes (test/telemetry/
 * otlp-span-encoder.test.ts holds it to that), at a fraction of its CPU.
 *
 * Why Baton has its own: with every span exported, serializing was the largest single part of
 * what telemetry costs a request (docs/benchmarks.md, "Telemetry"). Baton's spans repeat
 * themselves: the same attribute names on every span, and mostly the same values (the method,
 * the tool, the transport, the round's mode and outcome). The transformer writes each key and
 * value character by character, twice (once to measure, once to write). This encoder writes in
 * one pass and copies each attribute it has seen before (name, type and value, already encoded)
 * from a bounded cache; values that vary (request ids, sizes) are encoded as they come.
 *
 * One pass: a nested message's length is written before its bytes, so one byte is kept for it and
 * the bytes are moved along in the rare case the length needs more (a span, a batch).
 */

/** The parts of an SDK span this encoder reads (`ReadableSpan` of `@opentelemetry/sdk-trace`). */
export interface EncodableSpan {
  readonly name: string;
  readonly kind: number;
  spanContext(): EncodableSpanContext;
  readonly parentSpanContext?: EncodableSpanContext | undefined;
  readonly startTime: readonly [number, number];
  readonly endTime: readonly [number, number];
  readonly status: { code: number; message?: string | undefined };
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly links: readonly {
    context: EncodableSpanContext;
    attributes?: Readonly<Record<string, unknown>> | undefined;
    droppedAttributesCount?: number | undefined;
  }[];
  readonly events: readonly {
    name: string;
    time: readonly [number, number];
    attributes?: Readonly<Record<string, unknown>> | undefined;
    droppedAttributesCount?: number | undefined;
  }[];
  readonly droppedAttributesCount: number;
  readonly droppedEventsCount: number;
  readonly droppedLinksCount: number;
  readonly resource: {
    readonly attributes: Readonly<Record<string, unknown>>;
    readonly schemaUrl?: string | undefined;
  };
  readonly instrumentationScope: {
    readonly name: string;
    readonly version?: string | undefined;
    readonly schemaUrl?: string | undefined;
    readonly attributes?: Readonly<Record<string, unknown>> | undefined;
    readonly droppedAttributesCount?: number | undefined;
  };
}

interface EncodableSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean | undefined;
  traceState?: { serialize(): string } | undefined;
}

// Wire types (protobuf encoding).
const VARINT = 0;
const FIXED64 = 1;
const LENGTH = 2;
const FIXED32 = 5;

/** OTLP's span flags: the context's trace flags, and whether its parent was remote (trace.proto). */
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;

/** Values kept per attribute name: enough for every tool and outcome, not for ids that never repeat. */
const VALUES_PER_NAME = 64;
/** Attribute names kept: Baton's own, the host's instrumentation's, and room to spare. */
const NAMES = 512;
/** Longer attributes are encoded each time: a long value is rarely one that repeats. */
const CACHED_BYTES = 256;

/** A growable byte buffer that writes protobuf. */
class ProtobufBuffer {
  bytes = new Uint8Array(4096);
  view = new DataView(this.bytes.buffer);
  pos = 0;

  reserve(extra: number): void {
    if (this.pos + extra <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.pos + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.pos));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  varint(value: number): void {
    this.reserve(10);
    const bytes = this.bytes;
    if (value >= 0 && value < 0x80) {
      bytes[this.pos++] = value;
      return;
    }
    if (value < 0 || value > Number.MAX_SAFE_INTEGER) return this.#varint64(value);
    while (value >= 0x80) {
      bytes[this.pos++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    bytes[this.pos++] = value;
  }

  /** A negative or very large integer as int64 varint: two's complement in ten bytes at most. */
  #varint64(value: number): void {
    let big = BigInt.asUintN(64, BigInt(value));
    while (big >= 0x80n) {
      this.bytes[this.pos++] = Number(big & 0x7fn) | 0x80;
      big >>= 7n;
    }
    this.bytes[this.pos++] = Number(big);
  }

  fixed32(value: number): void {
    this.reserve(4);
    this.view.setUint32(this.pos, value >>> 0, true);
    this.pos += 4;
  }

  double(value: number): void {
    this.reserve(8);
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  /**
   * An HrTime ([seconds, nanoseconds]) as fixed64 nanoseconds. Nanoseconds since 1970 pass 2^53,
   * so the two 32-bit halves are computed apart (seconds split at 16 bits keep every product exact).
   */
  hrTime(time: readonly [number, number]): void {
    this.reserve(8);
    const [seconds, nanos] = time;
    const fromLow = (seconds % 0x10000) * 1e9;
    const fromHigh = Math.floor(seconds / 0x10000) * 1e9;
    // seconds * 1e9 = fromLow + fromHigh * 2^16; fromHigh * 2^16 has its low 32 bits in (fromHigh % 2^16) * 2^16.
    const low = (fromLow % 0x100000000) + (fromHigh % 0x10000) * 0x10000 + nanos;
    const high = Math.floor(fromLow / 0x100000000) + Math.floor(fromHigh / 0x10000) + Math.floor(low / 0x100000000);
    this.view.setUint32(this.pos, low >>> 0, true);
    this.view.setUint32(this.pos + 4, high >>> 0, true);
    this.pos += 8;
  }

  string(text: string): void {
    const length = text.length;
    let ascii = true;
    for (let i = 0; i < length; i++) {
      if (text.charCodeAt(i) > 0x7f) {
        ascii = false;
        break;
      }
    }
    if (!ascii) return this.raw(TEXT.encode(text));
    this.varint(length);
    this.reserve(length);
    const bytes = this.bytes;
    let pos = this.pos;
    for (let i = 0; i < length; i++) bytes[pos++] = text.charCodeAt(i);
    this.pos = pos;
  }

  /** Length-delimited bytes. */
  raw(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.copy(bytes);
  }

  /** Bytes already encoded, as they are. */
  copy(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** An id (hex) as bytes: 16 for a trace, 8 for a span. */
  hexId(hex: string): void {
    const length = hex.length >> 1;
    this.varint(length);
    this.reserve(length);
    const bytes = this.bytes;
    for (let i = 0; i < length; i++) {
      bytes[this.pos++] = (HEX[hex.charCodeAt(2 * i)]! << 4) | HEX[hex.charCodeAt(2 * i + 1)]!;
    }
  }

  /** Starts a nested message: one byte kept for its length (end() makes room when it needs more). */
  begin(): number {
    this.reserve(1);
    return this.pos++;
  }

  end(mark: number): void {
    const length = this.pos - mark - 1;
    if (length < 0x80) {
      this.bytes[mark] = length;
      return;
    }
    let size = 1;
    for (let rest = length; rest >= 0x80; rest = Math.floor(rest / 0x80)) size++;
    this.reserve(size - 1);
    this.bytes.copyWithin(mark + size, mark + 1, this.pos);
    this.pos += size - 1;
    let at = mark;
    let rest = length;
    while (rest >= 0x80) {
      this.bytes[at++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.bytes[at] = rest;
  }

  finish(): Uint8Array {
    return this.bytes.slice(0, this.pos);
  }
}

const TEXT = new TextEncoder();
const HEX = (() => {
  const table = new Uint8Array(128);
  for (let i = 0; i < 10; i++) table[48 + i] = i;
  for (let i = 0; i < 6; i++) table[65 + i] = table[97 + i] = 10 + i;
  return table;
})();

export class OtlpSpanEncoder {
  /** Encoded `KeyValue`s (without their field tag) by name, then by value. */
  readonly #attributes = new Map<string, Map<unknown, Uint8Array>>();
  /** A scratch buffer an attribute is encoded in before it is cached. */
  readonly #scratch = new ProtobufBuffer();

  /** One request of the spans given, grouped by resource and scope as the SDK's exporter does. */
  encode(spans: readonly EncodableSpan[]): Uint8Array {
    const byResource = new Map<
      EncodableSpan['resource'],
      Map<EncodableSpan['instrumentationScope'], EncodableSpan[]>
    >();
    for (const span of spans) {
      let byScope = byResource.get(span.resource);
      if (!byScope) byResource.set(span.resource, (byScope = new Map()));
      let group = byScope.get(span.instrumentationScope);
      if (!group) byScope.set(span.instrumentationScope, (group = []));
      group.push(span);
    }
    const out = new ProtobufBuffer();
    for (const [resource, byScope] of byResource) {
      out.tag(1, LENGTH);
      const resourceSpans = out.begin();
      out.tag(1, LENGTH);
      const resourceMark = out.begin();
      this.#attributesOf(out, resource.attributes, 1);
      out.tag(2, VARINT);
      out.varint(0);
      out.end(resourceMark);
      for (const [scope, group] of byScope) {
        out.tag(2, LENGTH);
        const scopeSpans = out.begin();
        this.#scope(out, scope);
        for (const span of group) {
          out.tag(2, LENGTH);
          const mark = out.begin();
          this.#span(out, span);
          out.end(mark);
        }
        if (scope.schemaUrl) {
          out.tag(3, LENGTH);
          out.string(scope.schemaUrl);
        }
        out.end(scopeSpans);
      }
      if (resource.schemaUrl) {
        out.tag(3, LENGTH);
        out.string(resource.schemaUrl);
      }
      out.end(resourceSpans);
    }
    return out.finish();
  }

  #scope(out: ProtobufBuffer, scope: EncodableSpan['instrumentationScope']): void {
    out.tag(1, LENGTH);
    const mark = out.begin();
    out.tag(1, LENGTH);
    out.string(scope.name);
    if (scope.version) {
      out.tag(2, LENGTH);
      out.string(scope.version);
    }
    if (scope.attributes) this.#attributesOf(out, scope.attributes, 3);
    if (scope.droppedAttributesCount) {
      out.tag(4, VARINT);
      out.varint(scope.droppedAttributesCount);
    }
    out.end(mark);
  }

  #span(out: ProtobufBuffer, span: EncodableSpan): void {
    const context = span.spanContext();
    out.tag(1, LENGTH);
    out.hexId(context.traceId);
    out.tag(2, LENGTH);
    out.hexId(context.spanId);
    const traceState = context.traceState?.serialize();
    if (traceState) {
      out.tag(3, LENGTH);
      out.string(traceState);
    }
    const parent = span.parentSpanContext;
    if (parent?.spanId) {
      out.tag(4, LENGTH);
      out.hexId(parent.spanId);
    }
    out.tag(5, LENGTH);
    out.string(span.name);
    // OTLP's SpanKind counts from UNSPECIFIED; the API's from INTERNAL.
    const kind = span.kind == null ? 0 : span.kind + 1;
    if (kind !== 0) {
      out.tag(6, VARINT);
      out.varint(kind);
    }
    out.tag(7, FIXED64);
    out.hrTime(span.startTime);
    out.tag(8, FIXED64);
    out.hrTime(span.endTime);
    this.#attributesOf(out, span.attributes, 9);
    out.tag(10, VARINT);
    out.varint(span.droppedAttributesCount);
    for (const event of span.events) {
      out.tag(11, LENGTH);
      const mark = out.begin();
      out.tag(1, FIXED64);
      out.hrTime(event.time);
      out.tag(2, LENGTH);
      out.string(event.name);
      if (event.attributes) this.#attributesOf(out, event.attributes, 3);
      out.tag(4, VARINT);
      out.varint(event.droppedAttributesCount || 0);
      out.end(mark);
    }
    out.tag(12, VARINT);
    out.varint(span.droppedEventsCount);
    for (const link of span.links) {
      out.tag(13, LENGTH);
      const mark = out.begin();
      out.tag(1, LENGTH);
      out.hexId(link.context.traceId);
      out.tag(2, LENGTH);
      out.hexId(link.context.spanId);
      const linkState = link.context.traceState?.serialize();
      if (linkState) {
        out.tag(3, LENGTH);
        out.string(linkState);
      }
      if (link.attributes) this.#attributesOf(out, link.attributes, 4);
      out.tag(5, VARINT);
      out.varint(link.droppedAttributesCount || 0);
      out.tag(6, FIXED32);
      out.fixed32(flags(link.context.traceFlags, link.context.isRemote));
      out.end(mark);
    }
    out.tag(14, VARINT);
    out.varint(span.droppedLinksCount);
    out.tag(15, LENGTH);
    const status = out.begin();
    if (span.status.message) {
      out.tag(2, LENGTH);
      out.string(span.status.message);
    }
    out.tag(3, VARINT);
    out.varint(span.status.code);
    out.end(status);
    out.tag(16, FIXED32);
    out.fixed32(flags(context.traceFlags, parent?.isRemote));
  }

  /** Attributes as repeated `KeyValue` in field `field`: each copied when it was seen before. */
  #attributesOf(out: ProtobufBuffer, attributes: Readonly<Record<string, unknown>>, field: number): void {
    for (const name in attributes) {
      if (!Object.prototype.hasOwnProperty.call(attributes, name)) continue;
      const value = attributes[name];
      out.tag(field, LENGTH);
      const cacheable = typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number';
      if (!cacheable) {
        const mark = out.begin();
        keyValue(out, name, value);
        out.end(mark);
        continue;
      }
      let values = this.#attributes.get(name);
      let encoded = values?.get(value);
      if (encoded === undefined) {
        const scratch = this.#scratch;
        scratch.pos = 0;
        const mark = scratch.begin();
        keyValue(scratch, name, value);
        scratch.end(mark);
        if (!values && this.#attributes.size < NAMES) this.#attributes.set(name, (values = new Map()));
        if (values && values.size < VALUES_PER_NAME && scratch.pos <= CACHED_BYTES) {
          encoded = scratch.finish();
          values.set(value, encoded);
        } else {
          out.copy(scratch.bytes.subarray(0, scratch.pos));
          continue;
        }
      }
      out.copy(encoded);
    }
  }
}

function flags(traceFlags: number, isRemote: boolean | undefined): number {
  return (traceFlags & 0xff) | HAS_IS_REMOTE | (isRemote ? IS_REMOTE : 0);
}

/** One `KeyValue`'s fields: its name, and its value as an `AnyValue` (common.proto). */
function keyValue(out: ProtobufBuffer, name: string, value: unknown): void {
  out.tag(1, LENGTH);
  out.string(name);
  out.tag(2, LENGTH);
  const mark = out.begin();
  anyValue(out, value);
  out.end(mark);
}

function anyValue(out: ProtobufBuffer, value: unknown): void {
  if (typeof value === 'string') {
    out.tag(1, LENGTH);
    out.string(value);
  } else if (typeof value === 'boolean') {
    out.tag(2, VARINT);
    out.varint(value ? 1 : 0);
  } else if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63) {
      out.tag(3, VARINT);
      out.varint(value);
    } else {
      out.tag(4, FIXED64);
      out.double(value);
    }
  } else if (value instanceof Uint8Array) {
    out.tag(7, LENGTH);
    out.raw(value);
  } else if (Array.isArray(value)) {
    out.tag(5, LENGTH);
    const array = out.begin();
    for (const item of value) {
      out.tag(1, LENGTH);
      const mark = out.begin();
      anyValue(out, item);
      out.end(mark);
    }
    out.end(array);
  } else if (typeof value === 'object' && value !== null) {
    out.tag(6, LENGTH);
    const list = out.begin();
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      out.tag(1, LENGTH);
      const mark = out.begin();
      keyValue(out, key, (value as Record<string, unknown>)[key]);
      out.end(mark);
    }
    out.end(list);
  }
}
