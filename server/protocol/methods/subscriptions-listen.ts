/**
 * `subscriptions/listen` (spec, basic/patterns/subscriptions). Baton's tools, prompts and
 * resources are fixed for the life of a deployment (no listChanged or subscribe capability is
 * advertised; a deploy that changes them reaches clients through the lists' ttlMs), so no
 * notification type can be honoured. The stream is still opened the spec's way: the
 * acknowledgment first, naming the agreed subset (none), then a graceful end, so a client learns
 * at once that there is nothing to wait for instead of holding a connection open for ever.
 */
import { isRecord } from '../../engine/index.js';
import type { MethodSpec } from '../method-context.js';
import { invalidParams } from '../protocol-error.js';
import { META } from '../request-meta.js';

const FILTER_FIELDS: Record<string, 'boolean' | 'strings'> = {
  toolsListChanged: 'boolean',
  promptsListChanged: 'boolean',
  resourcesListChanged: 'boolean',
  resourceSubscriptions: 'strings',
};

function checkFilter(filter: unknown): void {
  if (filter === undefined) return;
  if (!isRecord(filter)) throw invalidParams('Invalid params: notifications must be an object');
  for (const [field, kind] of Object.entries(FILTER_FIELDS)) {
    const value = filter[field];
    if (value === undefined) continue;
    const ok =
      kind === 'boolean'
        ? typeof value === 'boolean'
        : Array.isArray(value) && value.every((uri) => typeof uri === 'string');
    if (!ok)
      throw invalidParams(
        `Invalid params: notifications.${field} must be ${kind === 'boolean' ? 'a boolean' : 'an array of URIs'}`,
      );
  }
}

export function subscriptionsListenMethod(): MethodSpec {
  return {
    async handle({ id, params, notify }) {
      checkFilter(params.notifications);
      const subscription = { [META.subscriptionId]: id };
      notify({
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: subscription, notifications: {} },
      });
      return { _meta: subscription };
    },
  };
}
