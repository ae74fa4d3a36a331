/**
 * The runs of each queue job in this process, in the order they started: a run is handed back to
 * the queue only once every run of the same job that started after it has been handed back.
 * BullMQ's worker renews its locks by job id, one entry a job, which a later run of the job
 * replaces and the end of any run deletes (bullmq-task-queue.ts): handed back in this order, a
 * stale run can never end the lock renewal of the run that took over from it.
 */
export class JobRuns {
  readonly #byJob = new Map<string, Array<Promise<void>>>();

  async run<T>(jobId: string, work: () => Promise<T>): Promise<T> {
    let runs = this.#byJob.get(jobId);
    if (!runs) this.#byJob.set(jobId, (runs = []));
    let handBack!: () => void;
    const handedBack = new Promise<void>((resolve) => (handBack = resolve));
    runs.push(handedBack);
    try {
      return await work();
    } finally {
      // Each later run leaves the list before it is handed back, so this ends once none is left,
      // those that started while this one waited included.
      for (let later = laterThan(runs, handedBack); later.length > 0; later = laterThan(runs, handedBack)) {
        await Promise.all(later);
      }
      runs.splice(runs.indexOf(handedBack), 1);
      if (runs.length === 0) this.#byJob.delete(jobId);
      handBack();
    }
  }

  /** Runs of `jobId` in this process not handed back yet. */
  active(jobId: string): number {
    return this.#byJob.get(jobId)?.length ?? 0;
  }
}

function laterThan(runs: Array<Promise<void>>, run: Promise<void>): Array<Promise<void>> {
  return runs.slice(runs.indexOf(run) + 1);
}
