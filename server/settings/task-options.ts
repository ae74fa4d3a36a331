/**
 * Turns the environment's task settings into server options: Redis for the task store and BullMQ
 * for the queue when BATON_REDIS_URL is set (a fleet), else this process's memory (one instance,
 * with a loud warning when some tool can run as a task). Shared by each command that builds a
 * server.
 */
import { TASKS_IN_MEMORY_WARNING, type EnvironmentConfig } from './environment-config.js';
import type { TaskOptions } from '../create-server.js';
import {
  BullMqTaskQueue,
  definedFields,
  MemoryTaskStore,
  RedisTaskStore,
  stderrLogger,
  type ToolDefinition,
} from '../engine/index.js';

export function taskOptions(
  config: EnvironmentConfig,
  tools: ToolDefinition[],
  warnInMemory: () => void = () => void process.stderr.write(`${TASKS_IN_MEMORY_WARNING}\n`),
): { tasks?: TaskOptions } {
  if (!tools.some((tool) => tool.task !== undefined)) return {};
  const { ttlSeconds, pollIntervalMs, lockMs, concurrency, stepBudgetMs } = config.tasks;
  const tasks: TaskOptions = definedFields({
    ttlMs: ttlSeconds === undefined ? undefined : ttlSeconds * 1000,
    pollIntervalMs,
    stepBudgetMs,
    concurrency,
    ...config.perCallerLimits.tasks,
  });
  const { memoryBytes, redisMemoryPercent } = config.perCallerLimits.taskStore;
  if (!config.redis) {
    warnInMemory();
    return { tasks: { ...tasks, ...(memoryBytes ? { store: new MemoryTaskStore({ maxBytes: memoryBytes }) } : {}) } };
  }
  return {
    tasks: {
      ...tasks,
      store: new RedisTaskStore({
        redis: config.redis,
        keyRing: config.keyRing,
        logger: stderrLogger,
        ...(redisMemoryPercent ? { maxMemoryFraction: redisMemoryPercent / 100 } : {}),
      }),
      queue: new BullMqTaskQueue({
        redis: config.redis,
        ...definedFields({ lockDurationMs: lockMs, concurrency }),
      }),
    },
  };
}
