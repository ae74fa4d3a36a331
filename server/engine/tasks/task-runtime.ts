/**
 * Tasks wired together: the manager the protocol calls, the runner that works the queue, and
 * one `close`. The server and the docs' example runs build theirs here.
 */
import type { AnyStateMachine } from 'xstate';
import { JsonSchemaValidator } from '../json-schema-validator.js';
import type { Logger } from '../logger.js';
import { definedFields } from '../plain-objects.js';
import { ExpirySweep } from './expiry-sweep.js';
import { TaskManager } from './task-manager.js';
import type { TaskQueue } from './task-queue.js';
import type { ToWireError } from './task-record.js';
import { DEFAULT_TASK_QUOTAS, type TaskQuotas } from './task-quotas.js';
import { TaskRunner, type TaskTools } from './task-runner.js';
import type { TaskStore } from './task-store.js';
import type { Telemetry } from '../../telemetry/index.js';

export interface TaskRuntimeOptions {
  store: TaskStore;
  queue: TaskQueue;
  tools: TaskTools;
  versionOf: (machine: AnyStateMachine) => string;
  toWireError: ToWireError;
  logger: Logger;
  clock?: () => number;
  randomBytes?: (length: number) => Uint8Array;
  ttlMs?: number;
  pollIntervalMs?: number;
  stepBudgetMs?: number;
  telemetry?: Telemetry;
  /** What one caller may store (task-quotas.ts); defaults apply to any field not given. */
  quotas?: Partial<TaskQuotas>;
  /** How long a task of a version this build cannot run waits for another build's worker (task-versions.ts). */
  versionWaitMs?: number;
  /** Names this instance in each task's timeline (TaskRunnerOptions.instanceId). */
  instanceId?: string;
  /** How often this instance ends tasks past their ttl (expiry-sweep.ts; 1 s). */
  expirySweepMs?: number;
}

export interface TaskRuntime {
  manager: TaskManager;
  /** Stops listening for cancels and closes the queue and the store. */
  close(): Promise<void>;
}

export function startTaskRuntime(options: TaskRuntimeOptions): TaskRuntime {
  const { store, queue, versionOf, toWireError, clock } = options;
  store.useQuotas?.({ ...DEFAULT_TASK_QUOTAS, ...options.quotas });
  const manager = new TaskManager({
    store,
    queue,
    versionOf,
    toWireError,
    ...definedFields({
      clock,
      randomBytes: options.randomBytes,
      ttlMs: options.ttlMs,
      pollIntervalMs: options.pollIntervalMs,
      telemetry: options.telemetry,
    }),
  });
  const runner = new TaskRunner({
    store,
    queue,
    tools: options.tools,
    versionOf,
    toWireError,
    validator: new JsonSchemaValidator(),
    logger: options.logger,
    ...definedFields({
      clock,
      stepBudgetMs: options.stepBudgetMs,
      telemetry: options.telemetry,
      versionWaitMs: options.versionWaitMs,
      instanceId: options.instanceId,
    }),
  });
  options.telemetry?.metrics?.observe({
    ...(queue.depth ? { queueDepth: () => queue.depth!() } : {}),
    ...(queue.timersPending ? { timersPending: () => queue.timersPending!() } : {}),
  });
  queue.start((taskId, jobId, attempt) => runner.advance(taskId, jobId, attempt));
  const sweep = new ExpirySweep({
    store,
    expire: (taskId) => manager.expire(taskId),
    clock: clock ?? Date.now,
    logger: options.logger,
    ...definedFields({ intervalMs: options.expirySweepMs }),
  });
  sweep.start();
  return {
    manager,
    close: async () => {
      await sweep.stop();
      runner.close();
      await queue.close();
      await store.close();
    },
  };
}
