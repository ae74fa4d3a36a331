/** Tasks: long work that outlives a request (the `io.modelcontextprotocol/tasks` extension). */
export { idempotencyKey, startsTask, TASK_TAG, type TaskSupport } from '../authoring/task-authoring.js';
export {
  TaskManager,
  declaresTasks,
  TASKS_EXTENSION,
  DEFAULT_TASK_TTL_MS,
  DEFAULT_POLL_INTERVAL_MS,
} from './task-manager.js';
export type { NewTask, TaskManagerOptions } from './task-manager.js';
export { startTaskRuntime, type TaskRuntime, type TaskRuntimeOptions } from './task-runtime.js';
export { TaskRunner, type TaskRunnerOptions, type TaskTools } from './task-runner.js';
export type { TaskStore, TaskEventKind, TaskEventListener } from './task-store.js';
export { MemoryTaskStore } from './memory-task-store.js';
export { RedisTaskStore, type RedisTaskStoreOptions } from './redis-task-store.js';
export type { TaskQueue, TaskProcessor, ScheduleOptions } from './task-queue.js';
export { MemoryTaskQueue } from './memory-task-queue.js';
export { BullMqTaskQueue, type BullMqTaskQueueOptions } from './bullmq-task-queue.js';
export type { TaskRecord, TaskStatus } from './task-record.js';
export type { TaskTimer } from '../round/index.js';
