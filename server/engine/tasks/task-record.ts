/**
 * One task as Baton stores it, and the wire shapes the extension derives from it (tasks.md,
 * "Tasks"; schema 2026-07-28 `Task`, `DetailedTask`, `CreateTaskResult`). The record carries the
 * machine's persisted snapshot between steps; stores seal the whole record at rest.
 */
import { EngineError } from '../engine-error.js';
import type { ClientCapabilities, InputRequest } from '../mcp-shapes.js';
import type { TaskTimer } from '../round/index.js';
import type { TaskHistory } from './task-history.js';

/** A task's status on the wire (schema 2026-07-28 `TaskStatus`); the last three are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'cancelled' | 'failed';

/** What the task is doing between requests: `idle` waits for answers or timers, with no job queued. */
export type TaskPhase = 'queued' | 'running' | 'idle';

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** One outstanding question: its wire key is unique over the task's life (tasks.md, MUST). */
export interface AskedQuestion {
  /** The machine's question key (the `key` of the question state's `baton.input` meta). */
  questionKey: string;
  request: InputRequest;
  /** When it was first asked under this key (ms since the epoch), for the console's timeline. */
  askedAt?: number;
}

/** One task as a `TaskStore` keeps it: its wire fields, its owner, and the machine's snapshot between steps. */
export interface TaskRecord {
  taskId: string;
  /** Digest of the principal that created the task; every task request must match it. */
  principal: string;
  /**
   * Digest of the caller the task counts against (task-quotas.ts): the principal, or the client
   * address of an anonymous one. Absent on records stored before quotas existed.
   */
  owner?: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** The machine's structural version when the task started. */
  version: string;
  clientCapabilities: ClientCapabilities;
  status: TaskStatus;
  phase: TaskPhase;
  /** The job running a step while `phase` is `running`; the same id comes back if its instance died. */
  runningJob?: string | undefined;
  /** Which run of that job holds the step (task-claims.ts): a job run again elsewhere takes a new one. */
  runningStep?: string | undefined;
  statusMessage?: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  pollIntervalMs: number;
  /** The persisted XState snapshot to continue from; dropped once the task is terminal. */
  snapshot?: Record<string, unknown> | undefined;
  timers: TaskTimer[];
  /** Outstanding questions by wire key, and the answers received so far for some of them. */
  asked: Record<string, AskedQuestion>;
  answers: Record<string, unknown>;
  /** When each of those answers arrived (ms since the epoch), by wire key: times only, never values. */
  answeredAt?: Record<string, number> | undefined;
  /** How often each question key has been asked, for fresh wire keys when one is asked again. */
  askCounts: Record<string, number>;
  cancelRequested: boolean;
  result?: Record<string, unknown>;
  error?: JsonRpcErrorObject;
  /** The trace context of the call that created the task: its steps' spans link to it (telemetry/). */
  traceContext?: string;
  /**
   * What happened to it, bounded (task-history.ts): steps and their instances, questions asked and
   * answered by key, the states it has been in. Kept once terminal; absent on older records.
   */
  history?: TaskHistory | undefined;
}

/**
 * Turns an engine failure into the JSON-RPC error a failed task carries. It is the protocol
 * layer's one seam (protocol/engine-errors.ts), injected: the engine names reasons, never codes.
 */
export type ToWireError = (error: EngineError) => JsonRpcErrorObject;

/** A status with the fields that go with it when a record is finished or paused. */
export type Outcome = Partial<TaskRecord> & Pick<TaskRecord, 'status'>;

/** What a terminal task no longer needs to keep. */
export function terminalFields(): Partial<TaskRecord> {
  // The arguments too: a finished task is kept for the rest of its ttlMs, and only its result is read.
  return { arguments: {}, snapshot: undefined, timers: [], asked: {}, answers: {}, answeredAt: undefined };
}

export function cancelledOutcome(): Outcome {
  return { status: 'cancelled', statusMessage: 'Cancelled' };
}

/** `failed`, with the detail in statusMessage (tasks.md: SHOULD) and the wire error in `error`. */
export function failedOutcome(error: EngineError, toWireError: ToWireError): Outcome {
  return { status: 'failed', statusMessage: error.message, error: toWireError(error) };
}

export function expiredOutcome(record: TaskRecord, toWireError: ToWireError): Outcome {
  const message = `Task expired: it did not finish within its ttlMs (${record.ttlMs} ms)`;
  return failedOutcome(new EngineError('task_expired', message), toWireError);
}

/** The statuses a task never leaves (tasks extension, "Task status"): polling stops at them. */
export const TERMINAL_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'cancelled', 'failed']);

/** Whether a status, as read from the wire or a store, is one a task never leaves. */
export function isTerminalStatus(status: unknown): boolean {
  return (TERMINAL_TASK_STATUSES as ReadonlySet<unknown>).has(status);
}

export function isTerminal(record: Pick<TaskRecord, 'status'>): boolean {
  return TERMINAL_TASK_STATUSES.has(record.status);
}

/** The `Task` fields every shape shares. */
function taskFields(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/** The final `statusMessage` of a completed task: whether its tool succeeded, never a step on the way. */
export function completedMessage(result: Record<string, unknown> | undefined): string {
  return result?.isError === true ? 'Completed with a tool error' : 'Completed';
}

/** `CreateTaskResult` without `resultType`: the task handle, never its result or questions. */
export function toCreatedTask(record: TaskRecord): Record<string, unknown> {
  return taskFields(record);
}

/** `DetailedTask`: what `tasks/get` answers and `notifications/tasks` carries. */
export function toDetailedTask(record: TaskRecord): Record<string, unknown> {
  const task = taskFields(record);
  switch (record.status) {
    case 'input_required': {
      // Only the questions still waiting for an answer (a partial update removes answered ones).
      const inputRequests: Record<string, InputRequest> = {};
      for (const [key, asked] of Object.entries(record.asked)) {
        if (!Object.hasOwn(record.answers, key)) inputRequests[key] = asked.request;
      }
      return { ...task, inputRequests };
    }
    case 'completed':
      return {
        ...task,
        // The last progress seen ("Answers received", "Baking…") would read as the end; say how it ended.
        statusMessage: completedMessage(record.result),
        // The result "matches the result type of the original request" (tasks.md, DetailedTask), and
        // a 2026-07-28 CallToolResult carries `resultType` (schema, Result). Added here, where the
        // wire shape is built, so records stored without it and `notifications/tasks` carry it too.
        result: { content: [], ...record.result, resultType: 'complete' },
      };
    case 'failed':
      return { ...task, error: record.error ?? { code: -32603, message: 'Internal error' } };
    default:
      return task;
  }
}
