/**
 * Caps the requests one instance works on at once, and what one caller (a principal, or a client
 * address when anonymous: protocol's callerKey) may hold of them, so one client flooding it
 * cannot starve the rest: 256 slow calls from one address once made 181 of 183 calls from another
 * fail. The shares follow engine/fair-share.ts: a quarter of the gate per caller, and past three
 * quarters in use only callers holding a sixteenth of that. A request takes a slot only once its
 * body has arrived: a client that opens many requests and sends their bodies slowly must not hold
 * the slots honest requests need (body reads have their own time limit instead).
 *
 * Refusals are LimitExceeded (`concurrent_requests`): 503 when the instance is full, 429 when the
 * caller holds its share and others are still admitted; both with Retry-After.
 */
import { FairShare } from '../engine/index.js';
import { limitExceeded, type ProtocolError } from '../protocol/index.js';

/**
 * A quarter of the gate (64 of the default 256), as a client address may hold a quarter of the
 * body bytes in flight: enough for a host running many calls in parallel, or a few users behind
 * one address, and the benchmarks' 64 virtual clients; four callers cannot fill it.
 */
export function defaultPerClient(max: number): number {
  return Math.max(1, Math.floor(max / 4));
}

export class ConcurrencyGate {
  readonly #share: FairShare;

  constructor(
    readonly max: number,
    readonly perClient = defaultPerClient(max),
  ) {
    this.#share = new FairShare({ total: max, perCaller: perClient });
  }

  /** Takes a slot for `caller`, or answers the refusal (nothing taken). */
  tryEnter(caller: string): ProtocolError | undefined {
    const refusal = this.#share.take(caller);
    if (!refusal) return undefined;
    if (refusal.scope === 'instance') {
      return limitExceeded(
        'concurrent_requests',
        `Server busy: over the limit of ${this.max} concurrent requests; retry shortly`,
        'instance',
        { limit: this.max },
      );
    }
    const why = refusal.late
      ? `the most one client may hold while the server is nearly full (${this.#share.used} of ${this.max})`
      : `its share of the server's ${this.max}`;
    return limitExceeded(
      'concurrent_requests',
      `Too many concurrent requests: this client has ${refusal.limit} in progress, ${why}; retry once one ends`,
      'client',
      { limit: refusal.limit },
    );
  }

  leave(caller: string): void {
    this.#share.give(caller);
  }

  /** Requests in progress now (for tests and logs). */
  get active(): number {
    return this.#share.used;
  }
}
