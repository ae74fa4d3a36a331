/**
 * The default task store: one process's memory. Tasks are lost when the process stops, and other
 * instances cannot see them; start-up says so (create-server.ts). Records are copied in and out,
 * so no caller can change a stored record except through `update`.
 */
import { EventEmitter } from 'node:events';
import { deleteAfter, type TaskEventKind, type TaskEventListener, type TaskStore } from './task-store.js';
import type { TaskRecord } from './task-record.js';

export class MemoryTaskStore implements TaskStore {
  readonly #records = new Map<string, TaskRecord>();
  readonly #events = new EventEmitter();
  readonly #clock: () => number;

  constructor(options: { clock?: () => number } = {}) {
    this.#clock = options.clock ?? Date.now;
    this.#events.setMaxListeners(0);
  }

  async create(record: TaskRecord): Promise<void> {
    this.#sweep();
    if (this.#records.has(record.taskId)) throw new Error(`task ${record.taskId} exists`);
    this.#records.set(record.taskId, structuredClone(record));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.#live(taskId);
    return record && structuredClone(record);
  }

  async update(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    const current = this.#live(taskId);
    if (!current) return undefined;
    // Synchronous from read to write: nothing else in this process can interleave.
    const next = change(structuredClone(current));
    if (next) this.#records.set(taskId, structuredClone(next));
    return structuredClone(next ?? current);
  }

  async publish(taskId: string, kind: TaskEventKind): Promise<void> {
    this.#events.emit('event', taskId, kind);
  }

  listen(listener: TaskEventListener): () => void {
    this.#events.on('event', listener);
    return () => this.#events.off('event', listener);
  }

  async close(): Promise<void> {
    this.#events.removeAllListeners();
  }

  #live(taskId: string): TaskRecord | undefined {
    const record = this.#records.get(taskId);
    if (record && this.#clock() >= deleteAfter(record)) {
      this.#records.delete(taskId);
      return undefined;
    }
    return record;
  }

  /** Deletes expired records, so a long-lived process does not keep every task it ever ran. */
  #sweep(): void {
    const now = this.#clock();
    for (const [id, record] of this.#records) if (now >= deleteAfter(record)) this.#records.delete(id);
  }
}
