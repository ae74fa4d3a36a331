/**
 * Where tasks live between steps. The store is the one place Baton keeps server-side state for a
 * flow, so it must be shared by every instance that answers `tasks/*` (Redis for a fleet) and
 * must change a record atomically: steps, updates and cancels race from different instances.
 */
import type { TaskRecord } from './task-record.js';
import type { TaskQuotas } from './task-quotas.js';

/** `changed`: a task's observable state changed (notifications/tasks). `cancel`: stop its running step. */
export type TaskEventKind = 'changed' | 'cancel';
export type TaskEventListener = (taskId: string, kind: TaskEventKind) => void;

export interface TaskStore {
  /**
   * Stores a new task; resolves only once every instance can read it (tasks.md: durably created).
   * With quotas in force (`useQuotas`), rejects with a TaskLimitError and stores nothing when the
   * task's owner is over a quota, the record is over the size of one task, or the store is full.
   */
  create(record: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies `change` to the current record atomically, retrying if another instance changed it
   * first. `change` returns the new record, or undefined to leave it as it is. Resolves with the
   * record as stored afterwards (undefined if there is none).
   */
  update(taskId: string, change: (record: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined>;
  /**
   * Holds every task to `quotas` from now on (task-quotas.ts); the task runtime calls it once. An
   * update that would make a record larger than one task allows is rejected with a TaskLimitError and
   * leaves the record as it was. A store without it keeps no quotas.
   */
  useQuotas?(quotas: TaskQuotas): void;
  /** Tells every instance sharing the store (this one included). */
  publish(taskId: string, kind: TaskEventKind): Promise<void>;
  /** Receives every published event; returns the function that stops listening. */
  listen(listener: TaskEventListener): () => void;
  close(): Promise<void>;
}

/**
 * How long a finished or expired task stays readable after its ttlMs has elapsed, so a client
 * polling at its interval still sees the terminal status before the record is deleted.
 */
export const RETENTION_AFTER_TTL_MS = 60_000;

/** When a record may be deleted (ms since the epoch). */
export function deleteAfter(record: TaskRecord): number {
  return record.createdAt + record.ttlMs + RETENTION_AFTER_TTL_MS;
}
