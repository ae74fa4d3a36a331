/**
 * Who follows which task (subscriptions/listen, `notifications/tasks`), with one store listener
 * per instance. When a followed task changes, its record is read once and its detailed task built
 * and serialized once, whatever the number of followers: each gets the same view, JSON text and
 * bytes included. The record is read without a copy (task-store.ts, peek). Before, every follower re-read the record (the memory store clones it) and
 * serialized the whole task itself: 100 followers of a task with a large argument stalled the
 * server for seconds on every change.
 *
 * Reads for one task run one at a time; changes that arrive meanwhile are folded into one more
 * read, so followers see every state that was current when they were told, in order.
 */
import type { TaskRecord } from './task-record.js';
import { isTerminal, toDetailedTask } from './task-record.js';
import type { TaskStore } from './task-store.js';

/** One state of a task, as every follower gets it. */
export interface TaskView {
  task: Record<string, unknown>;
  terminal: boolean;
  /** `JSON.stringify(task)`, made once. */
  json: string;
  /** The same text as UTF-8, made once on first use and shared by every stream it is written to. */
  bytes(): Buffer;
}

export function taskView(record: TaskRecord): TaskView {
  const task = toDetailedTask(record);
  const json = JSON.stringify(task);
  let bytes: Buffer | undefined;
  return { task, terminal: isTerminal(record), json, bytes: () => (bytes ??= Buffer.from(json)) };
}

interface Follower {
  principal: string;
  deliver: (view: TaskView) => void;
}

export class TaskFollowers {
  readonly #store: TaskStore;
  readonly #byTask = new Map<string, Set<Follower>>();
  /** Tasks being read now, and whether another change came meanwhile. */
  readonly #reading = new Map<string, { again: boolean }>();
  #stopListening: (() => void) | undefined;

  constructor(store: TaskStore) {
    this.#store = store;
  }

  /** Delivers each change of `taskId` whose record belongs to `principal` (a digest); returns the stop. */
  add(taskId: string, principal: string, deliver: (view: TaskView) => void): () => void {
    this.#stopListening ??= this.#store.listen((id, kind) => {
      if (kind === 'changed' && this.#byTask.has(id)) this.#changed(id);
    });
    const follower: Follower = { principal, deliver };
    let set = this.#byTask.get(taskId);
    if (!set) this.#byTask.set(taskId, (set = new Set()));
    set.add(follower);
    return () => {
      set.delete(follower);
      if (set.size === 0 && this.#byTask.get(taskId) === set) this.#byTask.delete(taskId);
      if (this.#byTask.size === 0) {
        this.#stopListening?.();
        this.#stopListening = undefined;
      }
    };
  }

  /** Followers of `taskId` right now (for tests and logs). */
  count(taskId: string): number {
    return this.#byTask.get(taskId)?.size ?? 0;
  }

  #changed(taskId: string): void {
    const reading = this.#reading.get(taskId);
    if (reading) {
      reading.again = true;
      return;
    }
    const state = { again: false };
    this.#reading.set(taskId, state);
    void this.#read(taskId, state);
  }

  async #read(taskId: string, state: { again: boolean }): Promise<void> {
    try {
      do {
        state.again = false;
        if (!this.#byTask.has(taskId)) continue;
        const read = await this.#store
          .peek(taskId, (record) => ({ principal: record.principal, view: taskView(record) }))
          .catch(() => undefined);
        const followers = this.#byTask.get(taskId);
        if (!read || !followers) continue;
        for (const follower of [...followers]) if (follower.principal === read.principal) follower.deliver(read.view);
      } while (state.again);
    } finally {
      this.#reading.delete(taskId);
    }
  }
}
