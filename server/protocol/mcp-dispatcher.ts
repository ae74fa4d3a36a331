/**
 * The validation ladder and method table of MCP 2026-07-28, independent of any transport.
 * Order (docs/architecture.md, "The ladder"): envelope (-32600) -> notification (accepted) ->
 * `_meta` (-32602, 400) -> transport headers (-32020) -> version (-32022) -> method (-32601, 404)
 * -> params and handler (-32602, -32021, -32603). Every error echoes the request id when readable.
 */
import type { Cancellation, Logger } from '../engine/index.js';
import { RequestTelemetry, type Telemetry } from '../telemetry/index.js';
import { toWireError } from './engine-errors.js';
import {
  errorResponse,
  readableId,
  resultResponse,
  toIncomingMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './json-rpc.js';
import { CANCELLED, type Handled, type MethodResult, type MethodSpec } from './method-context.js';
import type { Principal } from './principal.js';
import { methodNotFound } from './protocol-error.js';
import { InsufficientScope } from './scope-policy.js';
import { PreparedNotification } from './prepared-notification.js';
import { assertSupportedVersion, SUPPORTED_PROTOCOL_VERSIONS, unsupportedVersion } from './protocol-version.js';
import { META, readRequestMeta, type RequestMeta } from './request-meta.js';

/** The server's name and version, as `server/discover` and `initialize` report them (`serverInfo`). */
export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
}

/** What the transport knows about one incoming message. */
export interface TransportContext {
  principal: Principal;
  /** Aborted when the client goes away; its AbortSignal is made only if a handler waits on it. */
  cancellation: Cancellation;
  /** Transport checks that sit between `_meta` and the version check (HTTP: standard headers). */
  checkTransport?: (request: JsonRpcRequest, meta: RequestMeta) => void;
  /** HTTP: the request's headers, where a client's trace context may be (stdio has none). */
  traceHeaders?: unknown;
  /** Delivers a notification for the request in flight; without it, notifications are dropped. */
  notify?: (message: JsonRpcNotification | PreparedNotification) => void;
  /** See MethodContext: the request turned long-lived and gives its request-gate slot back. */
  leaveRequestGate?: () => void;
  /** See MethodContext: keeps an idle response stream open (an SSE comment on HTTP). */
  keepAlive?: () => void;
}

export type Dispatched =
  | {
      type: 'response';
      response: JsonRpcResponse;
      httpStatus: number;
      /** The scopes the refused operation needs: HTTP adds the `insufficient_scope` challenge. */
      insufficientScope?: readonly string[];
    }
  /** A notification: nothing to answer (HTTP 202). */
  | { type: 'notification'; notification: JsonRpcNotification }
  /** The request was cancelled: nothing may be sent for it. */
  | { type: 'cancelled' };

export interface DispatcherOptions {
  serverInfo: ServerInfo;
  methods: Record<string, MethodSpec>;
  capabilities: () => Record<string, unknown>;
  logger: Logger;
  /** Spans and metrics per request (telemetry/). */
  telemetry?: Telemetry | undefined;
}

export class McpDispatcher {
  readonly #options: DispatcherOptions;
  /** The `_meta` of a result that has none of its own (most), made once. */
  readonly #serverMeta: Readonly<Record<string, unknown>>;

  constructor(options: DispatcherOptions) {
    this.#options = options;
    this.#serverMeta = Object.freeze({ [META.serverInfo]: options.serverInfo });
  }

  get serverInfo(): ServerInfo {
    return this.#options.serverInfo;
  }

  capabilities(): Record<string, unknown> {
    return this.#options.capabilities();
  }

  /**
   * A method's handler when it exists and its capability is advertised, for the 2025-11-25 layer
   * (server/protocol/legacy/), which runs its own checks and then the same handlers.
   */
  method(name: string): MethodSpec | undefined {
    const spec = Object.hasOwn(this.#options.methods, name) ? this.#options.methods[name] : undefined;
    if (!spec || (spec.capability && !Object.hasOwn(this.#options.capabilities(), spec.capability))) return undefined;
    return spec;
  }

  /**
   * Answers one message. Without a promise when nothing its handler ran waited (most flow rounds):
   * the transport then writes the answer in the same pass. An error, thrown or rejected, becomes
   * the error response either way.
   */
  dispatch(message: unknown, transport: TransportContext): Dispatched | Promise<Dispatched> {
    let id = readableId(message);
    let traced: RequestTelemetry | undefined;
    try {
      const incoming = toIncomingMessage(message);
      if (!('id' in incoming)) return { type: 'notification', notification: incoming };
      id = incoming.id;
      if (this.#options.telemetry?.active) traced = this.#traced(incoming, transport);
      const dispatched = this.#dispatchRequest(incoming, transport, traced);
      if (dispatched instanceof Promise) {
        return dispatched.then(
          (later) => (traced ? ended(traced, later) : later),
          (error: unknown) => this.#failed(id, error, message, traced),
        );
      }
      return traced ? ended(traced, dispatched) : dispatched;
    } catch (error) {
      return this.#failed(id, error, message, traced);
    }
  }

  #failed(
    id: ReturnType<typeof readableId>,
    error: unknown,
    message: unknown,
    traced: RequestTelemetry | undefined,
  ): Dispatched {
    const outcome = this.#errorOutcome(id, error, message);
    return traced ? ended(traced, outcome) : outcome;
  }

  #traced(request: JsonRpcRequest, transport: TransportContext): RequestTelemetry | undefined {
    const { method } = request;
    return RequestTelemetry.begin(this.#options.telemetry, {
      method,
      known: Object.hasOwn(this.#options.methods, method),
      id: request.id,
      meta: request.params?._meta,
      headers: transport.traceHeaders,
      transport: transport.traceHeaders === undefined ? 'pipe' : 'tcp',
    });
  }

  #dispatchRequest(
    request: JsonRpcRequest,
    transport: TransportContext,
    trace: RequestTelemetry | undefined,
  ): Dispatched | Promise<Dispatched> {
    const params = request.params ?? {};
    // A legacy client opens with initialize and no _meta: answer in the modern way, naming the
    // versions we serve, so it can tell this server apart (spec, basic/versioning).
    if (request.method === 'initialize' && typeof (params._meta as any)?.[META.protocolVersion] !== 'string') {
      throw unsupportedVersion(params.protocolVersion);
    }
    const meta = readRequestMeta(params);
    transport.checkTransport?.(request, meta);
    assertSupportedVersion(meta.protocolVersion);
    // Own properties only: a method named `constructor` or `__proto__` must not find Object's.
    const spec = Object.hasOwn(this.#options.methods, request.method)
      ? this.#options.methods[request.method]
      : undefined;
    if (request.method === 'initialize') {
      // A modern client that still opens with initialize: name the revisions served (spec,
      // basic/versioning: SHOULD name them in any error to an initialize), keeping -32601.
      throw methodNotFound(
        request.method,
        { supported: [...SUPPORTED_PROTOCOL_VERSIONS] },
        ` (this server speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')} and has no initialize handshake; send server/discover)`,
      );
    }
    if (!spec || (spec.capability && !Object.hasOwn(this.#options.capabilities(), spec.capability))) {
      throw methodNotFound(request.method);
    }
    const handled = spec.handle({
      id: request.id,
      method: request.method,
      params,
      meta,
      principal: transport.principal,
      cancellation: transport.cancellation,
      notify: (notification) => {
        if (transport.cancellation.aborted) return;
        transport.notify?.(
          notification instanceof PreparedNotification ? notification : { jsonrpc: '2.0', ...notification },
        );
      },
      trace,
      leaveRequestGate: transport.leaveRequestGate,
      keepAlive: transport.keepAlive,
    });
    const result = trace && request.method === 'subscriptions/listen' ? this.#listening(handled) : handled;
    if (result instanceof Promise) return result.then((later) => this.#answer(request, transport, later));
    return this.#answer(request, transport, result);
  }

  /** The response to a handled request, or nothing once it was cancelled. */
  #answer(request: JsonRpcRequest, transport: TransportContext, result: MethodResult | typeof CANCELLED): Dispatched {
    if (result === CANCELLED || transport.cancellation.aborted) return { type: 'cancelled' };
    // Copied, not changed in place: a handler may answer with an object it keeps (a cached list).
    const response = resultResponse(request.id, {
      resultType: 'complete',
      ...result,
      _meta: result._meta === undefined ? this.#serverMeta : { ...(result._meta as object), ...this.#serverMeta },
    });
    return { type: 'response', response, httpStatus: 200 };
  }

  /** A subscriptions/listen stream counts as live while its handler runs. */
  #listening(handled: Handled): Handled {
    const metrics = this.#options.telemetry?.metrics;
    if (!metrics) return handled;
    metrics.listenStream(1);
    return Promise.resolve(handled).finally(() => metrics.listenStream(-1));
  }

  #errorOutcome(id: ReturnType<typeof readableId>, error: unknown, message: unknown): Dispatched {
    const wire = toWireError(error, (unexpected) => {
      const method = (message as { method?: unknown } | null)?.method;
      this.#options.logger.error('request_failed', {
        method,
        error: String((unexpected as Error)?.stack ?? unexpected),
      });
    });
    const response = errorResponse(id, wire);
    if (wire instanceof InsufficientScope) {
      return { type: 'response', response, httpStatus: wire.httpStatus, insufficientScope: wire.scopes };
    }
    return { type: 'response', response, httpStatus: wire.httpStatus };
  }
}

/** Ends a request's telemetry with how it was answered: error code, result type, tool error. */
function ended(trace: RequestTelemetry, outcome: Dispatched): Dispatched {
  if (outcome.type !== 'response') {
    trace.end({});
    return outcome;
  }
  const { response } = outcome;
  if ('error' in response) {
    trace.end({ errorCode: response.error.code });
  } else {
    const result = response.result as { resultType?: unknown; isError?: unknown };
    trace.end({
      ...(typeof result.resultType === 'string' ? { resultType: result.resultType } : {}),
      toolError: result.isError === true,
    });
  }
  return outcome;
}
