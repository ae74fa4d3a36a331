/**
 * Who is calling. The HTTP auth hook (or the stdio environment) produces it; the engine binds
 * every sealed state to its id, so a state issued to one principal never runs for another.
 */
export interface Principal {
  /**
   * Stable identity: `<iss>|<sub>` for an OAuth access token (the same `sub` from another issuer
   * is another principal), `token:<name>` for a static token, `anonymous` without authentication.
   */
  id: string;
  /** Whether results may differ per principal (then cacheScope is "private"). */
  authenticated: boolean;
  /**
   * Where an unauthenticated caller connects from (its address, or its /64 for IPv6), set by the
   * HTTP transport. Anonymous callers all share one id, so per-caller quotas count this instead.
   */
  client?: string;
  /**
   * The OAuth scopes the caller's access token grants. Absent means unrestricted: no OAuth in
   * play (a static token, stdio, or anonymous on a server without authentication).
   */
  scopes?: readonly string[];
  /** The access token's `iss` and `sub`, when the caller came with one. */
  issuer?: string;
  subject?: string;
}

export const ANONYMOUS: Principal = Object.freeze({ id: 'anonymous', authenticated: false });
