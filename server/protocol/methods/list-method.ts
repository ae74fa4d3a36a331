/**
 * What every list method (tools, prompts, resources, resource templates) shares (spec,
 * server/utilities/pagination and caching): a deterministic list, paged by self-contained
 * cursors, described item by item, with caching hints.
 */
import { hintsFor } from '../caching-hints.js';
import type { MethodSpec } from '../method-context.js';
import { paginate } from '../pagination.js';
import type { ScopePolicy } from '../scope-policy.js';

export interface ListOptions {
  ttlMs: number;
  pageSize: number;
  /** Set when some entry needs scopes: a caller sees only what its scopes cover. */
  access?: ScopePolicy;
}

export interface ListSpec<T extends { scopes?: readonly string[] }> {
  capability: string;
  /** The result's list field: `tools`, `prompts`, `resources`, `resourceTemplates`. */
  field: string;
  items: () => T[];
  /** What identifies an item (its cursor position is checked against the list's digest). */
  keyOf: (item: T) => string;
  describe: (item: T) => Record<string, unknown>;
}

export function listMethod<T extends { scopes?: readonly string[] }>(
  spec: ListSpec<T>,
  options: ListOptions,
): MethodSpec {
  const { access } = options;
  return {
    capability: spec.capability,
    async handle({ params, principal }) {
      // A list cut to the caller's scopes is the caller's own: never for a shared cache (spec, caching).
      const filtered = access !== undefined && access.restricts(principal);
      const items = filtered ? spec.items().filter((item) => access.allows(item.scopes, principal)) : spec.items();
      const page = paginate(items, spec.keyOf, params.cursor, options.pageSize);
      return {
        [spec.field]: page.items.map(spec.describe),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        ...(filtered ? { ttlMs: options.ttlMs, cacheScope: 'private' } : hintsFor(options.ttlMs, principal)),
      };
    },
  };
}
