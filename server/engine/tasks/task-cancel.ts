/**
 * Stopping a task (tasks.md, tasks/cancel: cooperative), the one way every caller does it: the
 * task's own principal through TaskManager.cancel, an operator through the console or
 * `baton tasks cancel`. Whoever asks, the record changes the same way and every instance hears of
 * it the same way, so a cancel from a terminal stops a step running anywhere in the fleet.
 */
import type { Telemetry } from '../../telemetry/index.js';
import { cancelledOutcome, isTerminal, terminalFields, type TaskRecord } from './task-record.js';
import type { TaskStore } from './task-store.js';
import { withHistory } from './task-history.js';

/** `cancelled`: it was waiting, and is now cancelled; `requested`: its running step is asked to stop. */
export type CancelOutcome = 'cancelled' | 'requested' | 'terminal' | 'missing';

export interface CancelOptions {
  clock: () => number;
  telemetry?: Telemetry | undefined;
}

/**
 * A task waiting for answers or timers is cancelled at once; a running step is aborted through its
 * AbortSignal wherever it runs (the `cancel` event), and a step queued but not started yet sees
 * `cancelRequested` when it starts.
 */
export async function cancelTask(store: TaskStore, taskId: string, options: CancelOptions): Promise<CancelOutcome> {
  let cancelled = false;
  let wasTerminal = false;
  const stored: TaskRecord | undefined = await store.update(taskId, (r) => {
    cancelled = false;
    wasTerminal = isTerminal(r);
    if (wasTerminal) return undefined;
    if (r.phase !== 'idle') return { ...r, cancelRequested: true };
    cancelled = true;
    const now = options.clock();
    return {
      ...r,
      ...terminalFields(),
      ...cancelledOutcome(),
      cancelRequested: true,
      lastUpdatedAt: now,
      history: withHistory(r, now, { e: 'cancelled' }),
    };
  });
  if (!stored) return 'missing';
  if (wasTerminal) return 'terminal';
  if (cancelled) options.telemetry?.metrics?.taskStatus('cancelled', stored.tool);
  if (isTerminal(stored)) {
    await store.publish(taskId, 'changed');
    return 'cancelled';
  }
  await store.publish(taskId, 'cancel');
  return 'requested';
}
