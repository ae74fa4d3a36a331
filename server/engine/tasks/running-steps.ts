/**
 * The steps running in this process, so a cancel published by any instance can stop them. Kept
 * by task, a set of runs each: the same task may run twice here at once (a stale run and the run
 * of the same job that took over from it), a cancel must reach both, and a run that ends must
 * remove only its own controller, never the other's.
 */
import type { StepRun } from './task-claims.js';

export class RunningSteps {
  readonly #byTask = new Map<string, Set<StepRun>>();

  add(run: StepRun): void {
    let runs = this.#byTask.get(run.taskId);
    if (!runs) this.#byTask.set(run.taskId, (runs = new Set()));
    runs.add(run);
  }

  remove(run: StepRun): void {
    const runs = this.#byTask.get(run.taskId);
    if (!runs?.delete(run) || runs.size > 0) return;
    this.#byTask.delete(run.taskId);
  }

  /** Aborts every run of the task in this process. */
  abort(taskId: string): void {
    for (const run of this.#byTask.get(taskId) ?? []) run.controller.abort();
  }

  /** How many runs of the task are here (for tests). */
  count(taskId: string): number {
    return this.#byTask.get(taskId)?.size ?? 0;
  }
}
