/**
 * One MCP request as a span (kind SERVER, named `{method} {target}` as OpenTelemetry's MCP
 * conventions say) and as a point of `mcp.server.operation.duration`. Made by the dispatcher only
 * when telemetry is on (telemetry.ts), so a request with it off builds nothing.
 *
 * The span starts late on purpose, with the request's start time: a round that continues a flow
 * opens its requestState first, and when the client sent no context of its own the span joins the
 * flow's trace, under the context sealed in that state (trace-context.ts). Parent, in order: the
 * client's `_meta` context (semconv: the MCP context is the parent), the flow's, the HTTP headers',
 * the ambient one (an HTTP server span of the host's instrumentation); the others are linked.
 */
import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import { ATTR } from './attribute-names.js';
import { requestIdForTelemetry } from './request-id.js';
import type { Telemetry } from './telemetry.js';
import { extractContext, type FlowTraceContext } from './trace-context.js';

export interface RequestStart {
  /** The method as sent; `known` false puts `_OTHER` in its place (nothing a client invents becomes a name). */
  method: string;
  known: boolean;
  id: string | number | null | undefined;
  /** The request's raw `params._meta` and, over HTTP, its headers: where a client's context may be. */
  meta: unknown;
  headers?: unknown;
  /** `tcp` over HTTP, `pipe` over stdio (semconv, network.transport). */
  transport: 'tcp' | 'pipe';
}

/** How the request was answered. */
export interface RequestEnd {
  /** The JSON-RPC error code, when it was answered with one. */
  errorCode?: number;
  /** `resultType` of a result (complete, input_required, task), and whether it was a tool error. */
  resultType?: string;
  toolError?: boolean;
}

/** JSON-RPC 2.0's names for its own codes (section 5.1): a span's status description, never the message sent. */
const STANDARD_MESSAGES: Readonly<Record<number, string>> = {
  [-32700]: 'Parse error',
  [-32600]: 'Invalid Request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
};

export class RequestTelemetry {
  /**
   * The tool, prompt or resource the request ran, once the engine knows it is in the catalogue:
   * its catalogue name (a resource's template, never the URI read), as RoundTrace labels it.
   */
  target: string | undefined;
  readonly #telemetry: Telemetry;
  readonly #tracer: Tracer | undefined;
  readonly #start: RequestStart;
  readonly #method: string;
  readonly #startTime = performance.timeOrigin + performance.now();
  readonly #ambient: Context;
  #span: Span | undefined;
  #anchored = false;
  /** Why the round this request ran failed or was refused (round-trace.ts records it on this span). */
  #roundError: string | undefined;

  private constructor(telemetry: Telemetry, tracer: Tracer | undefined, start: RequestStart) {
    this.#telemetry = telemetry;
    this.#tracer = tracer;
    this.#start = start;
    this.#method = start.known ? start.method : '_OTHER';
    this.#ambient = context.active();
  }

  /** A record for one request, or undefined when telemetry is off. */
  static begin(telemetry: Telemetry | undefined, start: RequestStart): RequestTelemetry | undefined {
    if (!telemetry) return undefined;
    const tracer = telemetry.tracer();
    if (!tracer && !telemetry.metrics) return undefined;
    return new RequestTelemetry(telemetry, tracer, start);
  }

  /** Whether this request's span was parented by a flow's sealed context (no client context). */
  get anchored(): boolean {
    return this.#anchored;
  }

  /**
   * The request's span, started on first use; `flow` is the context sealed in the state this
   * request continues, when it has one. Undefined when spans are not recorded.
   */
  span(flow?: FlowTraceContext): Span | undefined {
    if (this.#span || !this.#tracer) return this.#span;
    const fromMeta = extractContext(this.#start.meta);
    const fromHeaders = this.#start.headers === undefined ? undefined : extractContext(this.#start.headers);
    const ambientSpan = trace.getSpanContext(this.#ambient);
    let parent: Context;
    if (fromMeta) parent = fromMeta;
    else if (flow) {
      parent = trace.setSpanContext(this.#ambient, flow.anchor);
      this.#anchored = true;
    } else parent = fromHeaders ?? this.#ambient;
    const parentContext = trace.getSpanContext(parent);
    const links: Link[] = [];
    for (const other of [fromHeaders && trace.getSpanContext(fromHeaders), ambientSpan]) {
      if (other && !sameSpan(other, parentContext) && !links.some((link) => sameSpan(link.context, other))) {
        links.push({ context: other, attributes: { [ATTR.linkKind]: 'transport' } });
      }
    }
    const name = this.target === undefined ? this.#method : `${this.#method} ${this.target}`;
    this.#span = this.#tracer.startSpan(
      name,
      { kind: SpanKind.SERVER, startTime: this.#startTime, links, attributes: this.#attributes() },
      parent,
    );
    return this.#span;
  }

  /** A check refused the request's requestState: why, for operators (the client learns only "invalid"). */
  refused(reason: string): void {
    this.#telemetry.metrics?.refused(reason as never);
    this.span()?.setAttribute(ATTR.refusalReason, reason);
  }

  /** The round this request ran failed: `reason` is its error type (the engine's or the tool's). */
  roundFailed(reason: string): void {
    this.#roundError = reason;
  }

  end(end: RequestEnd): void {
    const seconds = (performance.timeOrigin + performance.now() - this.#startTime) / 1000;
    const errorType = end.errorCode !== undefined ? String(end.errorCode) : end.toolError ? 'tool_error' : undefined;
    this.#telemetry.metrics?.request(seconds, this.#method, this.target, errorType);
    const span = this.span();
    if (!span) return;
    if (!span.isRecording()) return span.end();
    if (end.resultType !== undefined) span.setAttribute(ATTR.resultType, end.resultType);
    if (errorType !== undefined || this.#roundError !== undefined) {
      // The round's reason (`timeout`, `tampered`) says more than the code or `tool_error` it led to.
      span.setAttribute(ATTR.errorType, this.#roundError ?? errorType!);
      if (end.errorCode !== undefined) span.setAttribute(ATTR.rpcStatusCode, String(end.errorCode));
      // A tool error is the tool's answer, and a JSON-RPC message may quote the client ("Unknown
      // tool: …", "Method not found: …"): the description is the code's standard name, or none.
      const message = end.errorCode === undefined ? undefined : STANDARD_MESSAGES[end.errorCode];
      span.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message } : {}) });
    }
    span.end();
  }

  #attributes(): Attributes {
    const { id, transport } = this.#start;
    const method = this.#method;
    const target = this.target;
    // Assigned one by one: this runs for every traced request.
    const attributes: Attributes = { [ATTR.method]: method };
    if (target !== undefined) {
      const named =
        method === 'tools/call' ? ATTR.toolName : method === 'prompts/get' ? ATTR.promptName : ATTR.targetName;
      attributes[named] = target;
      if (method === 'tools/call') attributes[ATTR.operationName] = 'execute_tool';
    }
    if (id !== null && id !== undefined) attributes[ATTR.requestId] = requestIdForTelemetry(id);
    const meta = this.#start.meta as Record<string, unknown> | undefined;
    const version = meta?.['io.modelcontextprotocol/protocolVersion'];
    // A version this server speaks, or nothing: the field is the client's text.
    if (typeof version === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(version)) attributes[ATTR.protocolVersion] = version;
    attributes[ATTR.networkTransport] = transport;
    if (transport === 'tcp') attributes[ATTR.networkProtocol] = 'http';
    if (this.#telemetry.instanceId) attributes[ATTR.instanceId] = this.#telemetry.instanceId;
    return attributes;
  }
}

function sameSpan(a: SpanContext, b: SpanContext | undefined): boolean {
  return b !== undefined && a.traceId === b.traceId && a.spanId === b.spanId;
}
