/** What a method handler gets: one request, already through the validation ladder. */
import type { Cancellation, FlowCall, FlowEngine, FlowOutcome } from '../engine/index.js';
import type { RequestId } from './json-rpc.js';
import type { Principal } from './principal.js';
import type { PreparedNotification } from './prepared-notification.js';
import type { RequestMeta } from './request-meta.js';
import type { RequestTelemetry } from '../telemetry/index.js';

export interface MethodContext {
  id: RequestId;
  method: string;
  params: Record<string, unknown>;
  meta: RequestMeta;
  principal: Principal;
  /** Aborted when the client goes away (HTTP close, stdio notifications/cancelled). */
  cancellation: Cancellation;
  /** Sends a notification tied to this request (progress); on HTTP it opens the SSE stream. */
  notify: (notification: { method: string; params: Record<string, unknown> } | PreparedNotification) => void;
  /**
   * Runs a flow round in place of `engine.run`: the 2025-11-25 layer (server/protocol/legacy/)
   * answers questions live with server-to-client requests. Unset on 2026-07-28.
   */
  runFlow?: (engine: FlowEngine, call: FlowCall) => FlowOutcome | Promise<FlowOutcome>;
  /** The request's span and metrics, when telemetry is on (undefined otherwise). */
  trace?: RequestTelemetry | undefined;
  /**
   * Called by a request that turns long-lived (a listen stream, a call waiting for its client):
   * it gives back its slot in the transport's request gate, being counted by LongLivedBudget
   * instead (long-lived-budget.ts). Unset where there is no gate.
   */
  leaveRequestGate?: (() => void) | undefined;
  /** Keeps an idle response stream open through proxies (an SSE comment on HTTP); unset on stdio. */
  keepAlive?: (() => void) | undefined;
}

/** A handler's answer; the dispatcher adds `_meta.serverInfo` and defaults `resultType`. */
export type MethodResult = Record<string, unknown> & { resultType?: string };

/** Returned by a handler whose request was cancelled: nothing more may be sent for it. */
export const CANCELLED = Symbol('cancelled');

/** What a handler answers: at once when nothing it ran waited (most flow rounds), else later. */
export type Handled = MethodResult | typeof CANCELLED | Promise<MethodResult | typeof CANCELLED>;

export interface MethodSpec {
  /** The server capability that must be advertised for the method to exist (spec: -32601 otherwise). */
  capability?: string;
  /** May throw: the dispatcher answers a thrown error as it would a rejected promise. */
  handle(context: MethodContext): Handled;
}
