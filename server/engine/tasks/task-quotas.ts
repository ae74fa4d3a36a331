/**
 * What one caller may keep in the task store, and what it may make others pay for. A task lives
 * for its ttlMs (24 h by default) after it is created, finished or not, so without these a client
 * creating tasks in a loop fills the store: memory for one instance, Redis for a fleet, where a
 * full Redis (noeviction) also stops the single-use guard for everyone. Checked by the store, in
 * the same atomic step that stores the record, and refused before anything is stored.
 */
import { EngineError } from '../engine-error.js';
import type { TaskRecord } from './task-record.js';

export interface TaskQuotas {
  /** Tasks one caller may have that have not ended (working or input_required). */
  liveTasksPerClient: number;
  /** Bytes of task records one caller may have stored, finished ones included, until they are deleted. */
  bytesPerClient: number;
  /** Largest record one task may have: arguments, answers, snapshot and result together. */
  recordBytes: number;
}

export const DEFAULT_TASK_QUOTAS: TaskQuotas = {
  liveTasksPerClient: 100,
  bytesPerClient: 16 * 1024 * 1024,
  recordBytes: 1024 * 1024,
};

export type TaskLimitReason = 'live_tasks' | 'task_bytes' | 'task_record_bytes' | 'task_store_full';

/**
 * A task refused (or a change to one refused) by a limit. An EngineError, so the protocol maps it
 * at its one seam (LimitExceeded, with `data.reason`); `scope` says whose limit it is.
 */
export class TaskLimitError extends EngineError {
  constructor(
    readonly limit: TaskLimitReason,
    message: string,
    readonly scope: 'client' | 'instance',
    readonly value?: number,
  ) {
    super('limit_exceeded', message, { reason: limit, scope, ...(value === undefined ? {} : { limit: value }) });
  }
}

/** What a store is told when it stores a new task: the quotas to hold it to. */
export interface TaskAdmission {
  quotas: TaskQuotas;
}

/** One caller's use of the store, as the quotas count it. */
export interface OwnerUsage {
  live: number;
  bytes: number;
}

/** The refusal for a new task of `bytes` by an owner with `usage`, or undefined when it fits. */
export function admissionProblem(usage: OwnerUsage, bytes: number, quotas: TaskQuotas): TaskLimitError | undefined {
  if (bytes > quotas.recordBytes) return recordTooLarge(bytes, quotas.recordBytes);
  if (usage.live + 1 > quotas.liveTasksPerClient) {
    return new TaskLimitError(
      'live_tasks',
      `Too many tasks: this client has ${usage.live} that have not ended, its limit; wait for one to end or cancel one`,
      'client',
      quotas.liveTasksPerClient,
    );
  }
  if (usage.bytes + bytes > quotas.bytesPerClient) {
    return new TaskLimitError(
      'task_bytes',
      `Too much task data: this client's tasks hold ${usage.bytes} bytes and this one needs ${bytes}, over its limit of ${quotas.bytesPerClient}; retry once some have expired`,
      'client',
      quotas.bytesPerClient,
    );
  }
  return undefined;
}

export function recordTooLarge(bytes: number, limit: number): TaskLimitError {
  return new TaskLimitError(
    'task_record_bytes',
    `The task would hold ${bytes} bytes (arguments, answers and state), over the limit of ${limit} for one task`,
    'client',
    limit,
  );
}

/** Who a record counts against; records stored before owners were recorded count against nobody. */
export function ownerOf(record: TaskRecord): string | undefined {
  return record.owner;
}
