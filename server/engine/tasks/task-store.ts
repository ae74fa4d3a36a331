/**
 * Where tasks live between steps. The store is the one place Baton keeps server-side state for a
 * flow, so it must be shared by every instance that answers `tasks/*` (Redis for a fleet) and
 * must change a record atomically: steps, updates and cancels race from different instances.
 */
import type { TaskRecord } from './task-record.js';
import type { TaskListQuery, TaskPage } from './task-listing.js';
import type { TaskQuotas } from './task-quotas.js';

/** `changed`: a task's observable state changed (notifications/tasks). `cancel`: stop its running step. */
export type TaskEventKind = 'changed' | 'cancel';
export type TaskEventListener = (taskId: string, kind: TaskEventKind) => void;

/**
 * What every look-up checks before it reads a record: whose task it is, which tool it runs and
 * when its ttl runs out. None of it changes after creation.
 */
export interface TaskHead {
  /** Digest of the principal that created the task (TaskRecord.principal). */
  principal: string;
  tool: string;
  createdAt: number;
  ttlMs: number;
}

/** How `TaskStore.update` may save work: neither changes what is stored. */
export interface UpdateOptions {
  /**
   * A record this store handed out for the task a moment ago (by `get` or `update`), which the
   * caller decided on: a store that knows which version of the record it was may try `change` on
   * that version first rather than read the record again, a compare-and-set telling whether it is
   * still current (Redis: one read a step less). What is tried is the version as stored, never
   * the object itself, which the caller may have handed to code that changed it in place. A
   * `change` that leaves a seen version as it is, is tried again on the current one.
   */
  seen?: TaskRecord;
  /**
   * Published to every instance once `change` is stored, and only then (a change left undone
   * publishes nothing): Redis publishes it in the same script as the write, a round trip less
   * than `publish` after `update`.
   */
  announce?: TaskEventKind;
}

/**
 * Where tasks are kept between steps: `MemoryTaskStore` for one instance, `RedisTaskStore` for a
 * fleet. Every change to a record is atomic, since steps, updates and cancels race.
 */
export interface TaskStore {
  /**
   * Stores a new task; resolves only once every instance can read it (tasks.md: durably created).
   * With quotas in force (`useQuotas`), rejects with a TaskLimitError and stores nothing when the
   * task's owner is over a quota, the record is over the size of one task, or the store is full.
   */
  create(record: TaskRecord): Promise<void>;
  /** A copy of the whole record: for the step that runs the task and changes it. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * The task's head, at the cost of a few bytes however large the record is: a yes/no (is it
   * this caller's? which tool, for its scopes?) never reads or copies arguments and snapshot,
   * which a caller can make a megabyte (issue 38: one listen naming a large task 5,000 times
   * copied it 5,000 times and ran the process out of memory).
   */
  head(taskId: string): Promise<TaskHead | undefined>;
  /**
   * `read` applied to the current record, without copying it where the store can avoid that
   * (memory): for answers built from a few fields (tasks/get, notifications/tasks). `read` must
   * neither change the record nor keep a reference into it.
   */
  peek<T>(taskId: string, read: (record: Readonly<TaskRecord>) => T): Promise<T | undefined>;
  /**
   * Applies `change` to the current record atomically, retrying if another instance changed it
   * first. `change` returns the new record, or undefined to leave it as it is. Resolves with the
   * record as stored afterwards (undefined if there is none).
   */
  update(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
    options?: UpdateOptions,
  ): Promise<TaskRecord | undefined>;
  /**
   * A page of every principal's tasks, most recently changed first, as summaries (task-summary.ts:
   * never arguments, answers or the snapshot's context), for operators (the console, `baton
   * tasks`). Reads a page at a time however many tasks the store holds (task-listing.ts). Rejects
   * a query it cannot answer (a cursor that is not one) with a TaskQueryError.
   */
  list(query?: TaskListQuery): Promise<TaskPage>;
  /**
   * Holds every task to `quotas` from now on (task-quotas.ts); the task runtime calls it once. An
   * update that would make a record larger than one task allows is rejected with a TaskLimitError and
   * leaves the record as it was. A store without it keeps no quotas.
   */
  useQuotas?(quotas: TaskQuotas): void;
  /**
   * Up to `limit` tasks whose ttl ran out by `now` and that no write has ended since, for the
   * expiry sweep (expiry-sweep.ts). Each is handed out once a `leaseMs`: instances sweeping
   * together get different ones, and one handed to an instance that died comes back once its lease
   * is over. A task leaves the list when a write ends it or its record is deleted, so an ended task
   * costs the sweep nothing.
   */
  claimExpired(now: number, limit: number, leaseMs: number): Promise<string[]>;
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
