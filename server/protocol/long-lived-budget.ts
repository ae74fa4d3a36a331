/**
 * Requests that live for minutes or hours have a budget of their own, apart from the request gate
 * (http/concurrency-limit.ts), which is for work that ends within a round's time budget: a
 * `subscriptions/listen` stream lives until the tasks it follows end, and a 2025-11-25 call waiting
 * for its client's answer lives until the answer comes. Counted per caller and per instance, so
 * one caller holding many of them can never make another caller wait, and refused with
 * LimitExceeded (429 for the caller's share, 503 for the instance's) before anything is sent.
 */
import { limitExceeded } from './limit-exceeded.js';
import type { Principal } from './principal.js';
import type { ProtocolError } from './protocol-error.js';

export type LongLivedKind = 'listen_streams' | 'waiting_calls';

export interface LongLivedLimit {
  /** Held at once by the whole instance. */
  perInstance: number;
  /** Held at once by one caller: a principal, or a client address when anonymous. */
  perClient: number;
}

export type LongLivedLimits = Record<LongLivedKind, LongLivedLimit>;

export const DEFAULT_LONG_LIVED_LIMITS: LongLivedLimits = {
  listen_streams: { perInstance: 512, perClient: 16 },
  waiting_calls: { perInstance: 512, perClient: 16 },
};

const WHAT: Record<LongLivedKind, string> = {
  listen_streams: 'subscriptions/listen streams',
  waiting_calls: '2025-11-25 calls waiting for an answer',
};

/**
 * Who a limit counts against. Anonymous callers share one principal id, so they count by address;
 * the prefixes keep a principal named like an address from sharing that address's share.
 */
export function callerKey(principal: Principal): string {
  return principal.authenticated || !principal.client ? `principal:${principal.id}` : `address:${principal.client}`;
}

/** Gives a slot back; safe to call more than once. */
export type Release = () => void;

export class LongLivedBudget {
  readonly limits: LongLivedLimits;
  readonly #total = new Map<LongLivedKind, number>();
  readonly #perClient = new Map<string, number>();

  constructor(limits: Partial<Record<LongLivedKind, Partial<LongLivedLimit>>> = {}) {
    this.limits = {
      listen_streams: { ...DEFAULT_LONG_LIVED_LIMITS.listen_streams, ...limits.listen_streams },
      waiting_calls: { ...DEFAULT_LONG_LIVED_LIMITS.waiting_calls, ...limits.waiting_calls },
    };
  }

  /** Takes a slot of `kind` for `principal`, or the error that refuses it. */
  acquire(kind: LongLivedKind, principal: Principal): Release | ProtocolError {
    const limit = this.limits[kind];
    const key = `${kind} ${callerKey(principal)}`;
    const held = this.#perClient.get(key) ?? 0;
    if (held >= limit.perClient) {
      return limitExceeded(
        kind,
        `Too many ${WHAT[kind]}: this client holds ${limit.perClient}, its limit; close one and retry`,
        'client',
        { limit: limit.perClient },
      );
    }
    const total = this.#total.get(kind) ?? 0;
    if (total >= limit.perInstance) {
      return limitExceeded(
        kind,
        `Server busy: over the limit of ${limit.perInstance} ${WHAT[kind]}; retry shortly`,
        'instance',
        { limit: limit.perInstance },
      );
    }
    this.#perClient.set(key, held + 1);
    this.#total.set(kind, total + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total.set(kind, (this.#total.get(kind) ?? 1) - 1);
      const left = (this.#perClient.get(key) ?? 1) - 1;
      if (left > 0) this.#perClient.set(key, left);
      else this.#perClient.delete(key);
    };
  }

  /** Slots of `kind` held right now (for tests and logs). */
  held(kind: LongLivedKind): number {
    return this.#total.get(kind) ?? 0;
  }
}
