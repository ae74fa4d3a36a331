/**
 * Who is calling. The HTTP auth hook (or the stdio environment) produces it; the engine binds
 * every sealed state to its id, so a state issued to one principal never runs for another.
 */
export interface Principal {
  /** Stable identity, e.g. `iss|sub` of an OAuth token. */
  id: string;
  /** Whether results may differ per principal (then cacheScope is "private"). */
  authenticated: boolean;
  /**
   * Where an unauthenticated caller connects from (its address, or its /64 for IPv6), set by the
   * HTTP transport. Anonymous callers all share one id, so per-caller quotas count this instead.
   */
  client?: string;
}

export const ANONYMOUS: Principal = Object.freeze({ id: 'anonymous', authenticated: false });
