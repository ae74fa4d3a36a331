/**
 * Caching hints for cacheable results (spec, server/utilities/caching): discover, the lists and
 * resources/read carry `ttlMs` and `cacheScope`; input_required and tools/call results never do.
 */
import type { Principal } from './principal.js';

export interface CachingHints {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** Lists are the same for everyone unless the deployment authenticates callers. */
export function hintsFor(ttlMs: number, principal: Principal, dependsOnPrincipal: boolean): CachingHints {
  return { ttlMs, cacheScope: dependsOnPrincipal && principal.authenticated ? 'private' : 'public' };
}
