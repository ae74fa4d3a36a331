/**
 * Where a request's trace context comes from, and the one a flow carries between its rounds.
 *
 * A client names its context in `_meta` (`traceparent`, `tracestate`, `baggage`: spec 2026-07-28,
 * basic "OpenTelemetry trace context", W3C formats) or in HTTP headers. The host's registered
 * propagator reads them first; when it reads nothing (none registered, or another format), W3C
 * `traceparent`/`tracestate` are read here, since the spec fixes that format for `_meta`.
 *
 * A flow's context travels inside its sealed `requestState` (sealed-state.ts, claim 11), so the
 * next round, on any instance, joins the same trace and links the previous round even when the
 * client sends no context: `<traceId>-<anchorSpanId>-<roundSpanId>-<flags>`, hex as in W3C.
 */
import {
  createTraceState,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  trace,
  type Context,
  type SpanContext,
  type TextMapGetter,
} from '@opentelemetry/api';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;
const FLOW_CONTEXT = /^([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** Reads string values of a plain object (`_meta`) or Node's lower-cased header object. */
const carrierGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
    return undefined;
  },
};

/**
 * The context a carrier names, or undefined when it names no valid span context. `_meta` and
 * HTTP headers are both carriers: keys `traceparent`, `tracestate`, `baggage`.
 */
export function extractContext(carrier: unknown): Context | undefined {
  if (carrier === null || typeof carrier !== 'object') return undefined;
  const record = carrier as Record<string, unknown>;
  const extracted = propagation.extract(ROOT_CONTEXT, record, carrierGetter);
  const found = trace.getSpanContext(extracted);
  if (found && isSpanContextValid(found)) return extracted;
  const parent = parseTraceparent(carrierGetter.get(record, 'traceparent'), carrierGetter.get(record, 'tracestate'));
  return parent && trace.setSpanContext(extracted, parent);
}

function parseTraceparent(value: string | string[] | undefined, state: string | string[] | undefined) {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value.trim());
  // Version ff is invalid; a future version may add fields after the four known ones (W3C, 3.2).
  if (!match || match[1] === 'ff' || (match[1] === '00' && value.trim().length !== 55)) return undefined;
  const spanContext: SpanContext = {
    traceId: match[2]!,
    spanId: match[3]!,
    traceFlags: parseInt(match[4]!, 16) & 1,
    isRemote: true,
  };
  if (typeof state === 'string' && state !== '') spanContext.traceState = createTraceState(state);
  return isSpanContextValid(spanContext) ? spanContext : undefined;
}

/** A flow's trace context as sealed: the trace, the span later rounds hang under, and the round to link. */
export interface FlowTraceContext {
  /** Parent of a later round's request span when its client sends no context of its own. */
  anchor: SpanContext;
  /** The round that sealed this state: a later round links to it. */
  round: SpanContext;
}

export function encodeFlowContext(anchor: SpanContext, round: SpanContext): string {
  const flags = (round.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `${round.traceId}-${anchor.spanId}-${round.spanId}-${flags}`;
}

/** The sealed text as span contexts, or undefined when it is not one (it never fails a round). */
export function decodeFlowContext(text: string | undefined): FlowTraceContext | undefined {
  if (text === undefined) return undefined;
  const match = FLOW_CONTEXT.exec(text);
  if (!match) return undefined;
  const [, traceId, anchorId, roundId, flags] = match as unknown as [string, string, string, string, string];
  const traceFlags = parseInt(flags, 16) & 1;
  const anchor: SpanContext = { traceId, spanId: anchorId, traceFlags, isRemote: true };
  const round: SpanContext = { traceId, spanId: roundId, traceFlags, isRemote: true };
  return isSpanContextValid(anchor) && isSpanContextValid(round) ? { anchor, round } : undefined;
}
