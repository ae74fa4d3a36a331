/**
 * Which run of a step may write the task. A BullMQ job whose instance stops renewing its lock (the
 * instance died, or was starved of CPU for longer than the lock) is run again with the same job
 * id, from the last persisted snapshot: elsewhere, or in the very process whose first run is still
 * going (a frozen instance wakes and takes its own job again). If the first run was only slow, it
 * goes on and would write its settle point over the task, which may have moved on since (its
 * question answered, a durable timer set): the task then asked again what was answered, under the
 * same key, and waited for ever. So each run of a step claims the task with a token of its own,
 * carried with the run (`StepRun`) to every write it makes, and a write succeeds only while the
 * record still holds exactly that token: the run that took over writes instead.
 *
 * Two traps this rules out: a token looked up by task id (a second run in the same process
 * replaces the first's, and each then writes with the other's), and "no claim" read as "holds the
 * task" (a record a newer run has let go of has none). What writes without a step's claim (the
 * expiry or cancel of a task no step is running, from `advance`) goes through `isFree`, a rule of
 * its own.
 *
 * A claim handed over (issue 44): whoever stores a task and queues its first step writes that
 * step's claim in the same write, for the job it queues (`handedClaim`). The first start of that
 * job takes the claim it finds without writing, which spares every task one compare-and-set and
 * one sealed body; any later start of the same job (a retry, a stall, a frozen instance waking)
 * may overlap a first run still going, so it claims the task anew as above and the first run
 * writes nothing more. The task stays `queued` while a handed run has not written; the run
 * records its start with its first write, and writes it alone if the step takes longer than a
 * moment (handed-start.ts), so operators see it running. Until then, the claim holds against
 * nothing but the first start's own writes: another job of the task may still claim it.
 */
import { randomUUID } from 'node:crypto';
import type { TaskRecord } from './task-record.js';

/** One run of a step: its token, and the controller a cancel aborts. Passed with the run, never looked up. */
export interface StepRun {
  readonly taskId: string;
  readonly jobId: string;
  /** What this run stored in `runningStep` when it claimed the task. */
  readonly claim: string;
  readonly controller: AbortController;
  /** The states the machine was in during this run, for the task's timeline (task-history.ts). */
  readonly visited: Set<string>;
  /** When a run that took a handed claim started: its start is written with its first write. */
  readonly handedAt?: number;
}

export function newClaim(): string {
  return randomUUID();
}

/** The claim written with a task for the first start of `jobId` to take (see above). */
export function handedClaim(jobId: string): Pick<TaskRecord, 'runningJob' | 'runningStep'> {
  return { runningJob: jobId, runningStep: newClaim() };
}

/**
 * Whether a run on a claim handed to a job other than `jobId` may be going on without having
 * written its start: whoever ends such a task stops that run too (the `cancel` event).
 */
export function mayRunHanded(
  record: Pick<TaskRecord, 'phase' | 'runningJob' | 'runningStep'>,
  jobId?: string,
): boolean {
  return record.phase === 'queued' && Boolean(record.runningStep) && record.runningJob !== jobId;
}

/** Whether `claim`, one run's token, still holds the task. A missing token or a record without one never does. */
export function holdsClaim(record: Pick<TaskRecord, 'runningStep'>, claim: string): boolean {
  return typeof claim === 'string' && claim.length > 0 && record.runningStep === claim;
}

/**
 * Whether a write that is no step's (ending a task that expired or was cancelled before its step
 * ran, or failing it when its step could not start) may change the task: no step runs it, or only
 * a run of `jobId` itself, which is being run again because that run's instance stopped.
 */
export function isFree(record: Pick<TaskRecord, 'phase' | 'runningJob'>, jobId: string): boolean {
  return record.phase !== 'running' || record.runningJob === jobId;
}

/** The fields a run clears when it lets the task go (paused or finished). */
export function releasedClaim(): Pick<TaskRecord, 'runningJob' | 'runningStep'> {
  return { runningJob: undefined, runningStep: undefined };
}
