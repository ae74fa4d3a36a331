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
export type { TaskStore, TaskHead, TaskEventKind, TaskEventListener, UpdateOptions } from './task-store.js';
export {
  DEFAULT_TASK_PAGE,
  MAX_TASK_PAGE,
  MAX_TASKS_SCANNED,
  TaskQueryError,
  type TaskListQuery,
  type TaskPage,
} from './task-listing.js';
export { activeStates } from '../active-states.js';
export {
  describeTask,
  summarizeTask,
  type TaskDetail,
  type TaskQuestionSummary,
  type TaskSummary,
} from './task-summary.js';
export { cancelTask, type CancelOutcome } from './task-cancel.js';
export {
  MAX_HISTORY_ENTRIES,
  MAX_VISITED_STATES,
  timelineOf,
  withHistory,
  type HistoryEntry,
  type StepEnd,
  type TaskHistory,
  type TimelineEntry,
} from './task-history.js';
export {
  OperatorTasks,
  type OperatorTasksOptions,
  type PendingQuestion,
  type RevealedValues,
  type StuckPage,
  type StuckTask,
} from './operator-tasks.js';
export { DEFAULT_STUCK_THRESHOLDS, stuckReasons, type StuckReason, type StuckThresholds } from './stuck-tasks.js';
export { TaskFollowers, taskView, type TaskView } from './task-followers.js';
export { MemoryTaskStore, DEFAULT_MEMORY_STORE_BYTES } from './memory-task-store.js';
export { DEFAULT_TASK_QUOTAS, TaskLimitError, type TaskLimitReason, type TaskQuotas } from './task-quotas.js';
export { DEFAULT_MAX_MEMORY_FRACTION, parseMemoryInfo } from './redis-memory-watch.js';
export { RedisTaskStore, type RedisTaskStoreOptions } from './redis-task-store.js';
export type { TaskQueue, TaskProcessor, ScheduleOptions } from './task-queue.js';
export { MemoryTaskQueue, DEFAULT_TASK_CONCURRENCY } from './memory-task-queue.js';
export { BullMqTaskQueue, type BullMqTaskQueueOptions } from './bullmq-task-queue.js';
export { TERMINAL_TASK_STATUSES, isTerminalStatus, type TaskRecord, type TaskStatus } from './task-record.js';
export type { TaskTimer } from '../round/index.js';
