/**
 * Ends tasks whose ttl ran out while nothing ran them. Every instance sweeps the store's deadlines
 * (TaskStore.claimExpired) once a second and ends what it was handed (TaskManager.expire), instead
 * of each task carrying a delayed job of its own: on BullMQ that job cost every task about a dozen
 * Redis commands when it was created and some thirty more when it fired, usually on a task that had
 * ended long before. Now an ended task leaves the deadlines in the write that ends it, and a task
 * still open at its ttl costs a share of one script and its own expiry.
 *
 * A client never waits for the sweep: tasks/get and the listing end an expired task as they read
 * it (task-manager.ts). What the sweep adds is the `failed` status written, and announced to
 * `subscriptions/listen`, within about `intervalMs` of the ttl's end when nobody asks.
 */
import type { Logger } from '../logger.js';
import type { TaskStore } from './task-store.js';

export interface ExpirySweepOptions {
  store: TaskStore;
  /** Ends one task if it is still open past its ttl (TaskManager.expire). */
  expire: (taskId: string) => Promise<void>;
  /** The clock task deadlines are kept in (the manager's). */
  clock: () => number;
  logger: Logger;
  intervalMs?: number;
}

export const EXPIRY_SWEEP_MS = 1000;
/** Tasks handed out in one claim; a sweep claims again while it gets a full batch. */
const BATCH = 100;
/**
 * How long a claimed task is this instance's to end before another sweep may take it: far longer
 * than ending a batch takes, so only an instance that died mid-sweep leaves it to another.
 */
const LEASE_MS = 60_000;

export class ExpirySweep {
  readonly #o: ExpirySweepOptions;
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<number> | undefined;

  constructor(options: ExpirySweepOptions) {
    this.#o = options;
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.sweep(), this.#o.intervalMs ?? EXPIRY_SWEEP_MS);
    this.#timer.unref();
  }

  /** One sweep (a sweep already under way is joined, not doubled); resolves with the tasks it ended or left. */
  sweep(): Promise<number> {
    this.#sweeping ??= this.#run().finally(() => (this.#sweeping = undefined));
    return this.#sweeping;
  }

  /** Stops sweeping, once the sweep under way (if any) is done. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#sweeping;
  }

  async #run(): Promise<number> {
    const { store, expire, clock, logger } = this.#o;
    let handled = 0;
    try {
      for (;;) {
        const due = await store.claimExpired(clock(), BATCH, LEASE_MS);
        for (const taskId of due) {
          // One task that cannot be ended now (the store is away) is tried again after its lease.
          await expire(taskId).catch((error: unknown) =>
            logger.warn('task_expiry_failed', { taskId, error: String((error as Error)?.message ?? error) }),
          );
        }
        handled += due.length;
        if (due.length < BATCH || this.#timer === undefined) return handled;
      }
    } catch (error) {
      // The store is away (a failover): the next tick sweeps again.
      logger.warn('task_expiry_sweep_failed', { error: String((error as Error)?.message ?? error) });
      return handled;
    }
  }
}
