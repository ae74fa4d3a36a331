/**
 * Requests that live for minutes or hours have a budget of their own, apart from the request gate
 * (http/concurrency-limit.ts), which is for work that ends within a round's time budget: a
 * `subscriptions/listen` stream lives until the tasks it follows end, and a 2025-11-25 call waiting
 * for its client's answer lives until the answer comes. Counted per caller and per instance, so
 * one caller holding many of them can never make another caller wait, and admitted by the fair-
 * share rule (engine/fair-share.ts), so that many callers at their share still leave a newcomer
 * room: past three quarters of the total, a caller is admitted only up to a sixteenth of its
 * share (one, by default: a caller already holding one waits). Refused with LimitExceeded (429 for the caller's share, 503 for the instance's)
 * before anything is sent.
 */
import { FairShare, type ShareRefusal } from '../engine/index.js';
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
  readonly #shares: Record<LongLivedKind, FairShare>;

  constructor(limits: Partial<Record<LongLivedKind, Partial<LongLivedLimit>>> = {}) {
    this.limits = {
      listen_streams: { ...DEFAULT_LONG_LIVED_LIMITS.listen_streams, ...limits.listen_streams },
      waiting_calls: { ...DEFAULT_LONG_LIVED_LIMITS.waiting_calls, ...limits.waiting_calls },
    };
    const share = ({ perInstance, perClient }: LongLivedLimit) =>
      new FairShare({ total: perInstance, perCaller: perClient });
    this.#shares = {
      listen_streams: share(this.limits.listen_streams),
      waiting_calls: share(this.limits.waiting_calls),
    };
  }

  /** Takes a slot of `kind` for `principal`, or the error that refuses it. */
  acquire(kind: LongLivedKind, principal: Principal): Release | ProtocolError {
    const share = this.#shares[kind];
    const key = callerKey(principal);
    const refusal = share.take(key);
    if (refusal) return refused(kind, refusal, share.used);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      share.give(key);
    };
  }

  /** Slots of `kind` held right now (for tests and logs). */
  held(kind: LongLivedKind): number {
    return this.#shares[kind].used;
  }
}

function refused(kind: LongLivedKind, refusal: ShareRefusal, used: number): ProtocolError {
  const { scope, limit } = refusal;
  if (scope === 'instance') {
    return limitExceeded(kind, `Server busy: over the limit of ${limit} ${WHAT[kind]}; retry shortly`, scope, {
      limit,
    });
  }
  const why = refusal.late
    ? `the most one client may hold while the server is nearly full (${used} held)`
    : 'its limit';
  return limitExceeded(kind, `Too many ${WHAT[kind]}: this client holds ${limit}, ${why}; close one and retry`, scope, {
    limit,
  });
}
