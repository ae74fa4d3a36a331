/**
 * Which run of a step may write the task. A BullMQ job whose instance stops renewing its lock (the
 * instance died, or was starved of CPU for longer than the lock) is run again elsewhere with the
 * same job id, from the last persisted snapshot. If the first instance was only slow, its copy of
 * the step goes on and would write its settle point over the task, which may have moved on since
 * (its question answered, a durable timer set): the task then asked again what was answered,
 * under the same key, and waited for ever. So each run of a step claims the task with a token of
 * its own, and a run whose token is no longer the task's writes nothing: the run that took over
 * writes instead.
 */
import { randomUUID } from 'node:crypto';
import type { TaskRecord } from './task-record.js';

export function newClaim(): string {
  return randomUUID();
}

/** Whether `claim` (this process's run of the step, if any) still holds the task. */
export function holdsClaim(record: TaskRecord, claim: string | undefined): boolean {
  return claim === undefined || record.runningStep === claim;
}

/** The fields a run clears when it lets the task go (paused or finished). */
export function releasedClaim(): Pick<TaskRecord, 'runningJob' | 'runningStep'> {
  return { runningJob: undefined, runningStep: undefined };
}
