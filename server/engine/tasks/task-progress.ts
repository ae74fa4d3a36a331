/**
 * A running step's progress, written to the task's status message for tasks/get and
 * notifications/tasks. Progress can come many times a second; the record is written at most
 * twice a second, and always for the last report (progress equal to its total).
 */
import type { Progress } from '../round/index.js';
import { isTerminal, type TaskRecord } from './task-record.js';
import type { TaskStore } from './task-store.js';

const WRITE_INTERVAL_MS = 500;

export interface ProgressWriting {
  store: TaskStore;
  taskId: string;
  /** Task timestamps (lastUpdatedAt). */
  clock: () => number;
  /** Measures the interval between writes. */
  wallClock: () => number;
  /** Whether this run of the step still holds the task (task-claims.ts); a run that lost it writes nothing. */
  holds?: (record: TaskRecord) => boolean;
}

export function progressWriter({
  store,
  taskId,
  clock,
  wallClock,
  holds,
}: ProgressWriting): (report: Progress) => void {
  let lastWrite = 0;
  return ({ progress, total, message }) => {
    const now = wallClock();
    if (now - lastWrite < WRITE_INTERVAL_MS && (total === undefined || progress < total)) return;
    lastWrite = now;
    const lastUpdatedAt = clock();
    const statusMessage = message ?? (total === undefined ? `${progress}` : `${progress} of ${total}`);
    void store
      .update(taskId, (r) =>
        isTerminal(r) || (holds && !holds(r)) ? undefined : { ...r, statusMessage, lastUpdatedAt },
      )
      .then(() => store.publish(taskId, 'changed'))
      .catch(() => {});
  };
}
