/**
 * The limits that keep one caller from degrading service for another, from the environment:
 * its share of the request gate, long-lived requests (listen streams, 2025-11-25 calls waiting
 * for an answer), how long a listen stream lives, and what one caller may keep in the task store. Each one is documented with its default in docs/configuration.md; unset
 * means the default, and a value that is not a positive whole number stops start-up.
 */
import { ConfigurationError, definedFields } from '../engine/index.js';
import type { BatonOptions, TaskOptions } from '../create-server.js';

function limit(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new ConfigurationError(`${name} must be a positive whole number, got "${value}".`);
  }
  return parsed;
}

function percent(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = limit(env, name);
  if (value !== undefined && value > 100) throw new ConfigurationError(`${name} is a percent (1-100), got "${value}".`);
  return value;
}

export interface LimitOptions extends Pick<BatonOptions, 'longLived' | 'listen' | 'maxConcurrentRequestsPerClient'> {
  /** Task quotas and the steps the in-memory queue runs at once (TaskOptions). */
  tasks: Pick<TaskOptions, 'quotas'>;
  /** How full the task store may get before new tasks wait: memory bytes, or a percent of Redis's. */
  taskStore: { memoryBytes?: number; redisMemoryPercent?: number };
  /** 2025-11-25 sessions: live ones per caller, resource subscriptions per session. */
  legacy: { maxSessionsPerClient?: number; maxSubscriptionsPerSession?: number };
}

export function limitsFromEnvironment(env: NodeJS.ProcessEnv = process.env): LimitOptions {
  const share = (perInstance: string, perClient: string) =>
    definedFields({ perInstance: limit(env, perInstance), perClient: limit(env, perClient) });
  return {
    ...definedFields({ maxConcurrentRequestsPerClient: limit(env, 'BATON_MAX_CONCURRENT_PER_CLIENT') }),
    longLived: {
      listen_streams: share('BATON_MAX_LISTEN_STREAMS', 'BATON_MAX_LISTEN_STREAMS_PER_CLIENT'),
      waiting_calls: share('BATON_MAX_WAITING_CALLS', 'BATON_MAX_WAITING_CALLS_PER_CLIENT'),
    },
    listen: definedFields({
      keepAliveMs: limit(env, 'BATON_LISTEN_KEEP_ALIVE_MS'),
      maxLifetimeMs: limit(env, 'BATON_LISTEN_MAX_LIFETIME_MS'),
      maxTaskIds: limit(env, 'BATON_LISTEN_MAX_TASK_IDS'),
    }),
    tasks: {
      quotas: definedFields({
        liveTasksPerClient: limit(env, 'BATON_MAX_LIVE_TASKS_PER_CLIENT'),
        bytesPerClient: limit(env, 'BATON_MAX_TASK_BYTES_PER_CLIENT'),
        recordBytes: limit(env, 'BATON_MAX_TASK_BYTES'),
      }),
    },
    legacy: definedFields({
      maxSessionsPerClient: limit(env, 'BATON_MAX_SESSIONS_PER_CLIENT'),
      maxSubscriptionsPerSession: limit(env, 'BATON_MAX_SUBSCRIPTIONS_PER_SESSION'),
    }),
    taskStore: definedFields({
      memoryBytes: limit(env, 'BATON_MAX_TASK_STORE_BYTES'),
      redisMemoryPercent: percent(env, 'BATON_TASK_REDIS_MEMORY_PERCENT'),
    }),
  };
}
