/**
 * The start of a run on a handed claim (task-claims.ts): the run took the claim its task was
 * stored with and wrote nothing, so its start goes into the record with its first write, or on
 * its own once the step has run a moment, so that operators see the step running.
 */
import type { Logger } from '../logger.js';
import { holdsClaim, type StepRun } from './task-claims.js';
import { withHistory } from './task-history.js';
import { isTerminal, type TaskRecord } from './task-record.js';
import type { TaskStore } from './task-store.js';

/**
 * `r` with the start of a run on a handed claim recorded, as a claim of its own would have
 * (running, on `instance`, since it took the claim), unless it is recorded already; any other
 * run's record as is.
 */
export function withStart(run: StepRun, r: TaskRecord, instance: string): TaskRecord {
  if (run.handedAt === undefined || r.phase !== 'queued') return r;
  return { ...r, phase: 'running', history: withHistory(r, run.handedAt, { e: 'start', i: instance }) };
}

export interface StartWriting {
  store: TaskStore;
  /** Task timestamps (lastUpdatedAt). */
  clock: () => number;
  logger: Logger;
  instance: string;
  afterMs: number;
}

/** Writes the start of a run on a handed claim on its own after `afterMs`; clear the timer to skip it. */
export function writeStartLater(
  { store, clock, logger, instance, afterMs }: StartWriting,
  run: StepRun,
): NodeJS.Timeout {
  const write = () =>
    store.update(
      run.taskId,
      (r) => {
        if (isTerminal(r) || !holdsClaim(r, run.claim) || r.phase !== 'queued') return undefined;
        return { ...withStart(run, r, instance), lastUpdatedAt: clock() };
      },
      { announce: 'changed' },
    );
  const timer = setTimeout(() => {
    write().catch((error: unknown) => {
      // Only the timeline and the console's view wait for it: the step's own writes record the start.
      logger.warn('task_start_write_failed', { taskId: run.taskId, error: String(error) });
    });
  }, afterMs);
  timer.unref();
  return timer;
}
