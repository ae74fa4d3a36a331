/**
 * Caching hints for cacheable results (spec, server/utilities/caching): discover, the lists and
 * resources/read carry `ttlMs` and `cacheScope`; input_required and tools/call results never do.
 * When callers are authenticated, results are `private`: a deployment that authenticates may
 * shape what each principal sees, and a shared cache must never serve one principal's answer to
 * another.
 */
import type { Principal } from './principal.js';

/** What discover advertises changes only with a deploy. */
export const DISCOVER_TTL_MS = 60 * 60 * 1000;
/** The lists; live tools (`baton dev`) announce their changes on subscriptions/listen instead. */
export const LIST_TTL_MS = 5 * 60 * 1000;
/** A resource's contents may come from a machine that reads live data. */
export const READ_TTL_MS = 60 * 1000;

export interface CachingHints {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

export function hintsFor(ttlMs: number, principal: Principal): CachingHints {
  return { ttlMs, cacheScope: principal.authenticated ? 'private' : 'public' };
}
