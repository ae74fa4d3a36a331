/**
 * What every list method (tools, prompts, resources, resource templates) shares (spec,
 * server/utilities/pagination and caching): a deterministic list, paged by self-contained
 * cursors, described item by item, with caching hints.
 */
import { hintsFor } from '../caching-hints.js';
import type { MethodSpec } from '../method-context.js';
import { paginate } from '../pagination.js';

export interface ListOptions {
  ttlMs: number;
  pageSize: number;
}

export interface ListSpec<T> {
  capability: string;
  /** The result's list field: `tools`, `prompts`, `resources`, `resourceTemplates`. */
  field: string;
  items: () => T[];
  /** What identifies an item (its cursor position is checked against the list's digest). */
  keyOf: (item: T) => string;
  describe: (item: T) => Record<string, unknown>;
}

export function listMethod<T>(spec: ListSpec<T>, options: ListOptions): MethodSpec {
  return {
    capability: spec.capability,
    async handle({ params, principal }) {
      const page = paginate(spec.items(), spec.keyOf, params.cursor, options.pageSize);
      return {
        [spec.field]: page.items.map(spec.describe),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        ...hintsFor(options.ttlMs, principal),
      };
    },
  };
}
