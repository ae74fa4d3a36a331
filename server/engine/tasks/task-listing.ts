/**
 * Paging through a store's tasks (TaskStore.list), for the console and `baton tasks`: most
 * recently changed first, with a cursor that says where a page stopped, so a store of any size is
 * read a page at a time (Redis: a sorted index, never `KEYS`). Every store applies the same query
 * rules here, so the memory store and Redis answer alike.
 *
 * Like Redis's SCAN, a page may hold fewer tasks than asked (its filters matched few of the tasks
 * it read) and still have a cursor: read on until there is none. A task that changes while an
 * operator pages moves to the front, and is seen again on the next first page, not in this pass.
 */
import type { TaskStatus } from './task-record.js';
import type { TaskSummary } from './task-summary.js';

export interface TaskListQuery {
  /** Only tasks in one of these statuses. */
  status?: readonly TaskStatus[] | undefined;
  /** Only tasks of this tool. */
  tool?: string | undefined;
  /** Only tasks last changed at or before this time (ms since the epoch): the stuck view reads these. */
  changedBefore?: number | undefined;
  /** Only tasks last changed at or after this time. */
  changedAfter?: number | undefined;
  /** Tasks a page holds at most (50; at most 500). */
  limit?: number | undefined;
  /** Where the previous page stopped (TaskPage.cursor), opaque. */
  cursor?: string | undefined;
}

export interface TaskPage {
  tasks: TaskSummary[];
  /** Where to go on from; absent when every task was read. */
  cursor?: string;
}

export const DEFAULT_TASK_PAGE = 50;
export const MAX_TASK_PAGE = 500;
/**
 * Tasks one page reads at most, matching or not: a filter that matches nothing in a store of a
 * million tasks answers an empty page with a cursor rather than reading them all in one request.
 */
export const MAX_TASKS_SCANNED = 2000;

/** A place in the order tasks are listed in: by last change, newest first, then by id, descending. */
export interface ListPosition {
  changedAt: number;
  taskId: string;
}

/** A query the store cannot answer: a cursor that is not one, a limit out of range. */
export class TaskQueryError extends Error {
  override readonly name = 'TaskQueryError';
}

export interface NormalizedTaskQuery {
  status: ReadonlySet<TaskStatus> | undefined;
  tool: string | undefined;
  changedBefore: number;
  changedAfter: number;
  limit: number;
  after: ListPosition | undefined;
}

export function encodeCursor(position: ListPosition): string {
  return `${position.changedAt}.${position.taskId}`;
}

export function decodeCursor(cursor: string): ListPosition {
  const match = /^(\d{1,16})\.([\x21-\x7e]{1,64})$/.exec(cursor);
  const changedAt = match ? Number(match[1]) : NaN;
  if (!match || !Number.isSafeInteger(changedAt)) throw new TaskQueryError('Not a task list cursor');
  return { changedAt, taskId: match[2]! };
}

export function normalizeTaskQuery(query: TaskListQuery = {}): NormalizedTaskQuery {
  const limit = query.limit ?? DEFAULT_TASK_PAGE;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_TASK_PAGE) {
    throw new TaskQueryError(`A page holds 1 to ${MAX_TASK_PAGE} tasks`);
  }
  return {
    status: query.status && query.status.length > 0 ? new Set(query.status) : undefined,
    tool: query.tool || undefined,
    changedBefore: query.changedBefore ?? Number.MAX_SAFE_INTEGER,
    changedAfter: query.changedAfter ?? 0,
    limit,
    after: query.cursor ? decodeCursor(query.cursor) : undefined,
  };
}

/** Whether `position` comes after `after` in list order (newest first, then id descending). */
export function comesAfter(position: ListPosition, after: ListPosition | undefined): boolean {
  if (!after) return true;
  return (
    position.changedAt < after.changedAt || (position.changedAt === after.changedAt && position.taskId < after.taskId)
  );
}

/** List order: the most recently changed first; ties by id, descending (as Redis orders a sorted set in reverse). */
export function listOrder(a: ListPosition, b: ListPosition): number {
  if (a.changedAt !== b.changedAt) return b.changedAt - a.changedAt;
  return a.taskId < b.taskId ? 1 : a.taskId > b.taskId ? -1 : 0;
}

/** Whether a task's summary passes the query's filters (its time bounds are the store's to apply). */
export function matchesQuery(summary: TaskSummary, query: NormalizedTaskQuery): boolean {
  if (query.status && !query.status.has(summary.status)) return false;
  if (query.tool !== undefined && summary.tool !== query.tool) return false;
  return summary.lastUpdatedAt <= query.changedBefore && summary.lastUpdatedAt >= query.changedAfter;
}
