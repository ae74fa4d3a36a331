/**
 * The live part of one 2025-11-25 session in this instance: the server-to-client requests
 * waiting for their answers, the client requests in flight (so `notifications/cancelled` and
 * DELETE can stop them), the log level, the resource subscriptions and the stream for messages
 * that belong to no request (the GET stream on HTTP, stdout on stdio). What `initialize` settled
 * is in the session token instead (session-token.ts).
 */
import type { LoggingLevel } from '../../engine/index.js';
import type { RequestId } from '../json-rpc.js';

/** Where messages for the client go: a request's response stream, or the standalone stream. */
export type Send = (message: Record<string, unknown>) => void;

/** How the client answered one server-to-client request. */
export type ClientAnswer =
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; error: { code?: unknown; message?: unknown } }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

export class LegacySession {
  logLevel: LoggingLevel | undefined;
  readonly subscriptions = new Set<string>();
  /** Messages unrelated to any request (resource updates); unset while no GET stream is open. */
  standalone: Send | undefined;
  /** Closes the standalone stream when the session ends. */
  closeStandalone: (() => void) | undefined;
  readonly #waiting = new Map<RequestId, (answer: ClientAnswer) => void>();
  readonly #inFlight = new Map<RequestId, AbortController>();

  constructor(
    readonly id: string,
    readonly protocolVersion: string,
    readonly clientCapabilities: Record<string, unknown>,
    /** The caller it counts against (long-lived-budget.ts, callerKey). */
    readonly owner = '',
  ) {}

  /** Waits for the client's response to request `id`, until `signal` aborts or `timeoutMs` passes. */
  expect(id: RequestId, signal: AbortSignal, timeoutMs: number): Promise<ClientAnswer> {
    return new Promise((resolve) => {
      const done = (answer: ClientAnswer) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#waiting.delete(id);
        resolve(answer);
      };
      const onAbort = () => done({ kind: 'aborted' });
      const timer = setTimeout(() => done({ kind: 'timeout' }), timeoutMs);
      timer.unref?.();
      if (signal.aborted) return done({ kind: 'aborted' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(id, done);
    });
  }

  /** Hands a response from the client to the request waiting for it; false when none waits. */
  deliver(id: unknown, answer: ClientAnswer): boolean {
    const waiting = typeof id === 'string' || typeof id === 'number' ? this.#waiting.get(id) : undefined;
    waiting?.(answer);
    return waiting !== undefined;
  }

  /** Gives up on a request nobody will wait for any more (a sibling question failed). */
  forget(id: RequestId): void {
    this.#waiting.get(id)?.({ kind: 'aborted' });
  }

  /** Registers a client request in flight; returns undefined when its id is already in flight. */
  begin(id: RequestId, signal: AbortSignal): AbortController | undefined {
    if (this.#inFlight.has(id)) return undefined;
    const controller = new AbortController();
    if (signal.aborted) controller.abort();
    else signal.addEventListener('abort', () => controller.abort(), { once: true });
    this.#inFlight.set(id, controller);
    return controller;
  }

  finish(id: RequestId, controller: AbortController): void {
    if (this.#inFlight.get(id) === controller) this.#inFlight.delete(id);
  }

  /** `notifications/cancelled`: stops that request; nothing more is sent for it. */
  cancel(requestId: unknown): void {
    if (typeof requestId === 'string' || typeof requestId === 'number') this.#inFlight.get(requestId)?.abort();
  }

  /** The session ended (DELETE, or the transport closed): every request in flight stops. */
  end(): void {
    for (const controller of this.#inFlight.values()) controller.abort();
    this.#inFlight.clear();
    this.closeStandalone?.();
    this.standalone = undefined;
    this.closeStandalone = undefined;
  }

  get idle(): boolean {
    return this.#inFlight.size === 0 && this.#waiting.size === 0 && this.standalone === undefined;
  }
}
