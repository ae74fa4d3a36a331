/**
 * A running step's progress, written to the task's status message for tasks/get and
 * notifications/tasks. Progress can come many times a second; the record is written at most
 * twice a second, and always for the last report (progress equal to its total).
 */
import type { Progress } from '../round/index.js';
import { holdsClaim } from './task-claims.js';
import { isTerminal } from './task-record.js';
import type { TaskStore } from './task-store.js';

const WRITE_INTERVAL_MS = 500;

export interface ProgressWriting {
  store: TaskStore;
  taskId: string;
  /** Task timestamps (lastUpdatedAt). */
  clock: () => number;
  /** Measures the interval between writes. */
  wallClock: () => number;
  /** The claim of the run reporting (task-claims.ts): once the record holds another, or none, nothing is written. */
  claim: string;
}

export function progressWriter({
  store,
  taskId,
  clock,
  wallClock,
  claim,
}: ProgressWriting): (report: Progress) => void {
  let lastWrite = 0;
  return ({ progress, total, message }) => {
    const now = wallClock();
    if (now - lastWrite < WRITE_INTERVAL_MS && (total === undefined || progress < total)) return;
    lastWrite = now;
    const lastUpdatedAt = clock();
    const statusMessage = message ?? (total === undefined ? `${progress}` : `${progress} of ${total}`);
    void store
      .update(
        taskId,
        (r) => (!isTerminal(r) && holdsClaim(r, claim) ? { ...r, statusMessage, lastUpdatedAt } : undefined),
        { announce: 'changed' },
      )
      .catch(() => {});
  };
}
