/**
 * The default task store: one process's memory. Tasks are lost when the process stops, and other
 * instances cannot see them; start-up says so (create-server.ts). Records are copied in and out,
 * so no caller can change a stored record except through `update`.
 *
 * With quotas in force, every record is measured as it is stored (its structured-clone size,
 * which is what it costs here) and counted against its owner (task-quotas.ts); all the records
 * together are held to `maxBytes`, shared by the fair-share rule (engine/fair-share.ts): past
 * three quarters full, only an owner whose tasks would hold no more than a sixteenth of its quota
 * (one largest record at least) stores more, so 20 addresses at their 16 MiB cannot fill the
 * 256 MiB and leave a newcomer without room for a task.
 */
import { EventEmitter } from 'node:events';
import { deserialize, serialize } from 'node:v8';
import {
  deleteAfter,
  type TaskEventKind,
  type TaskEventListener,
  type TaskHead,
  type TaskStore,
  type UpdateOptions,
} from './task-store.js';
import { isTerminal, type TaskRecord } from './task-record.js';
import { admissionProblem, recordTooLarge, TaskLimitError, type OwnerUsage, type TaskQuotas } from './task-quotas.js';
import { shareRefusal } from '../fair-share.js';
import {
  comesAfter,
  encodeCursor,
  listOrder,
  matchesQuery,
  MAX_TASKS_SCANNED,
  normalizeTaskQuery,
  type ListPosition,
  type TaskListQuery,
  type TaskPage,
} from './task-listing.js';
import { summarizeTask } from './task-summary.js';

/** Bytes all records together may hold in one process (256 MiB), when quotas are in force. */
export const DEFAULT_MEMORY_STORE_BYTES = 256 * 1024 * 1024;

interface Stored {
  record: TaskRecord;
  bytes: number;
}

/** Tasks in this process's memory (the default): lost on restart and unseen by other instances. */
export class MemoryTaskStore implements TaskStore {
  readonly #records = new Map<string, Stored>();
  readonly #owners = new Map<string, OwnerUsage>();
  /** Task id -> when its ttl runs out (or its sweep lease ends), for the tasks not yet ended. */
  readonly #deadlines = new Map<string, number>();
  readonly #events = new EventEmitter();
  readonly #clock: () => number;
  readonly #maxBytes: number;
  #bytes = 0;
  #lastSweep = -Infinity;
  #quotas: TaskQuotas | undefined;

  constructor(options: { clock?: () => number; maxBytes?: number } = {}) {
    this.#clock = options.clock ?? Date.now;
    this.#maxBytes = options.maxBytes ?? DEFAULT_MEMORY_STORE_BYTES;
    this.#events.setMaxListeners(0);
  }

  useQuotas(quotas: TaskQuotas): void {
    this.#quotas = quotas;
  }

  async create(record: TaskRecord): Promise<void> {
    this.#sweep();
    if (this.#records.has(record.taskId)) throw new Error(`task ${record.taskId} exists`);
    const { copy, bytes } = this.#copyOf(record);
    const quotas = this.#quotas;
    if (quotas) {
      const usage = (record.owner && this.#owners.get(record.owner)) || { live: 0, bytes: 0 };
      const problem = admissionProblem(usage, bytes, quotas) ?? this.#shareProblem(usage.bytes, bytes, quotas);
      if (problem) throw problem;
    }
    this.#put(record.taskId, copy, bytes);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.#live(taskId);
    return record && structuredClone(record);
  }

  async head(taskId: string): Promise<TaskHead | undefined> {
    const record = this.#live(taskId);
    return (
      record && { principal: record.principal, tool: record.tool, createdAt: record.createdAt, ttlMs: record.ttlMs }
    );
  }

  async peek<T>(taskId: string, read: (record: Readonly<TaskRecord>) => T): Promise<T | undefined> {
    const record = this.#live(taskId);
    // No copy: a stored record is never changed in place (update stores a new one), so what
    // `read` builds from it stays as it was read.
    return record && read(record);
  }

  async update(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
    options: UpdateOptions = {},
  ): Promise<TaskRecord | undefined> {
    const current = this.#live(taskId);
    if (!current) return undefined;
    // Synchronous from read to write: nothing else in this process can interleave.
    const next = change(structuredClone(current));
    if (!next) return structuredClone(current);
    const { copy, bytes } = this.#copyOf(next);
    if (this.#quotas && bytes > this.#quotas.recordBytes) throw recordTooLarge(bytes, this.#quotas.recordBytes);
    this.#put(taskId, copy, bytes);
    if (options.announce) await this.publish(taskId, options.announce);
    // The caller's own object: the store keeps a copy, so nothing the caller does to it reaches the store.
    return next;
  }

  async list(query?: TaskListQuery): Promise<TaskPage> {
    const q = normalizeTaskQuery(query);
    const now = this.#clock();
    // Sorted per call: the memory store serves one instance, and only operators list.
    const entries = [...this.#records.values()]
      .map(({ record }) => record)
      .filter((record) => now < deleteAfter(record) && record.lastUpdatedAt <= q.changedBefore)
      .map((record) => ({ changedAt: record.lastUpdatedAt, taskId: record.taskId, record }))
      .sort(listOrder);
    const tasks = [];
    let scanned = 0;
    let last: ListPosition | undefined;
    for (const entry of entries) {
      if (!comesAfter(entry, q.after)) continue;
      if (entry.changedAt < q.changedAfter) return { tasks };
      if (tasks.length === q.limit || scanned === MAX_TASKS_SCANNED) return { tasks, cursor: encodeCursor(last!) };
      scanned += 1;
      last = entry;
      const summary = summarizeTask(entry.record);
      if (matchesQuery(summary, q)) tasks.push(summary);
    }
    return { tasks };
  }

  async claimExpired(now: number, limit: number, leaseMs: number): Promise<string[]> {
    const due: string[] = [];
    for (const [taskId, dueAt] of this.#deadlines) {
      if (due.length >= limit) break;
      if (dueAt > now) continue;
      if (!this.#live(taskId)) continue;
      this.#deadlines.set(taskId, now + leaseMs);
      due.push(taskId);
    }
    return due;
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

  /** Bytes all records hold now, as the quotas count them (for tests and logs). */
  get heldBytes(): number {
    return this.#bytes;
  }

  /** The refusal of `bytes` more by an owner holding `held`, by the store's total and its fair shares. */
  #shareProblem(held: number, bytes: number, quotas: TaskQuotas): TaskLimitError | undefined {
    const limits = { total: this.#maxBytes, perCaller: quotas.bytesPerClient, unit: quotas.recordBytes };
    const refusal = shareRefusal(limits, this.#bytes, held, bytes);
    if (!refusal) return undefined;
    if (refusal.scope === 'instance') {
      return new TaskLimitError(
        'task_store_full',
        `Server busy: the task store holds ${this.#bytes} bytes, near its limit of ${this.#maxBytes}; retry later`,
        'instance',
      );
    }
    return new TaskLimitError(
      'task_bytes',
      `Server busy: the task store is nearly full, and while it is a client's tasks may hold ${refusal.limit} bytes; this client's hold ${held} and this one needs ${bytes}; retry once some have expired`,
      'client',
      refusal.limit,
    );
  }

  /**
   * The copy of `record` the store keeps, and its size as the quotas count it (measured only when
   * they are in force): one serialization gives both, where a structuredClone and a measure were
   * two (structuredClone serializes too). Copying records was a fifth of a task create's CPU.
   */
  #copyOf(record: TaskRecord): { copy: TaskRecord; bytes: number } {
    const serialized = serialize(record);
    return { copy: deserialize(serialized) as TaskRecord, bytes: this.#quotas ? serialized.byteLength : 0 };
  }

  #put(taskId: string, record: TaskRecord, bytes: number): void {
    this.#remove(taskId);
    this.#records.set(taskId, { record, bytes });
    this.#count(record, bytes, 1);
    // Set once, at creation: a later write keeps the deadline, or the lease the sweep took on it.
    if (isTerminal(record)) this.#deadlines.delete(taskId);
    else if (!this.#deadlines.has(taskId)) this.#deadlines.set(taskId, record.createdAt + record.ttlMs);
  }

  /** Deletes a record for good (its retention is over). */
  #delete(taskId: string): void {
    this.#remove(taskId);
    this.#deadlines.delete(taskId);
  }

  #remove(taskId: string): void {
    const stored = this.#records.get(taskId);
    if (!stored) return;
    this.#records.delete(taskId);
    this.#count(stored.record, stored.bytes, -1);
  }

  /** Adds (`sign` 1) or takes away (-1) a record from its owner's usage and the store's total. */
  #count(record: TaskRecord, bytes: number, sign: 1 | -1): void {
    this.#bytes += sign * bytes;
    if (!record.owner) return;
    const usage = this.#owners.get(record.owner) ?? { live: 0, bytes: 0 };
    usage.bytes += sign * bytes;
    if (!isTerminal(record)) usage.live += sign;
    if (usage.bytes <= 0 && usage.live <= 0) this.#owners.delete(record.owner);
    else this.#owners.set(record.owner, usage);
  }

  #live(taskId: string): TaskRecord | undefined {
    const stored = this.#records.get(taskId);
    if (stored && this.#clock() >= deleteAfter(stored.record)) {
      this.#delete(taskId);
      return undefined;
    }
    return stored?.record;
  }

  /** Deletes expired records, so a long-lived process does not keep every task it ever ran. */
  #sweep(): void {
    const now = this.#clock();
    // At most once a second: a loop creating tasks must not walk every record each time.
    if (now - this.#lastSweep < 1000) return;
    this.#lastSweep = now;
    for (const [id, { record }] of this.#records) if (now >= deleteAfter(record)) this.#delete(id);
  }
}
