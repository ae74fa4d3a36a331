/**
 * What an operator sees of a task (the console, `baton tasks`): built from the record, without
 * its arguments, its answers' values or its snapshot's context, which are the caller's data. The
 * states come from the snapshot's `value` (names from the machine, never from a caller), the
 * questions by key, the timers by id and due time, the trace by id.
 */
import type { JsonRpcErrorObject, TaskPhase, TaskRecord, TaskStatus } from './task-record.js';
import { completedMessage, isTerminal } from './task-record.js';
import { activeStates } from '../active-states.js';
import { lastInstance, timelineOf, type TimelineEntry } from './task-history.js';

export interface TaskQuestionSummary {
  /** The wire key (`approve`, `approve.2`): what tasks/update answers. */
  key: string;
  /** The machine's question key. */
  questionKey: string;
  answered: boolean;
  /** When it was asked and answered (ms since the epoch); absent on records stored before these were kept. */
  askedAt?: number;
  answeredAt?: number;
}

export interface TaskSummary {
  taskId: string;
  tool: string;
  /** The machine's structural version the task started with. */
  version: string;
  status: TaskStatus;
  phase: TaskPhase;
  /** The states it waits in or runs, as key paths from the root (`deploy.waiting`); empty once terminal. */
  states: string[];
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  /** When its ttl runs out: past this and not terminal, it is failed as expired. */
  expiresAt: number;
  /** Digest of the principal that created it (never the principal itself). */
  principal: string;
  /** The job running its step while `phase` is `running`. */
  runningJob?: string;
  /** The instance that last started a step of it (its history's), when recorded. */
  instance?: string;
  /** Whether a run of a step holds the task (task-claims.ts); the claim token itself stays in the store. */
  claimed: boolean;
  cancelRequested: boolean;
  questions: TaskQuestionSummary[];
  /** Durable timers by XState's id (`xstate.after.5000.ship.wait`), earliest first; not their events. */
  timers: Array<{ id: string; dueAt: number }>;
  /** The OpenTelemetry trace its steps' spans link to (32 hex digits), when it was created in one. */
  traceId?: string;
  /** The wire error of a failed task. */
  error?: JsonRpcErrorObject;
}

/** A task's page: its summary, its timeline, and the result of a completed task. */
export interface TaskDetail extends TaskSummary {
  /** The tool's result (a CallToolResult) once completed: the operator asked to see this task. */
  result?: Record<string, unknown>;
  /** What happened, oldest first (task-history.ts); undefined on a record stored before it was kept. */
  timeline?: TimelineEntry[];
  /** Older entries dropped to keep the timeline bounded. */
  timelineDropped?: number;
  /** The states it has been in, as key paths from the root (the current ones included). */
  visited?: string[];
}

const FLOW_TRACE_ID = /^([0-9a-f]{32})-/;

export function summarizeTask(record: Readonly<TaskRecord>): TaskSummary {
  const terminal = isTerminal(record);
  const questions: TaskQuestionSummary[] = Object.entries(record.asked).map(([key, asked]) => {
    const answeredAt = record.answeredAt?.[key];
    return {
      key,
      questionKey: asked.questionKey,
      answered: Object.hasOwn(record.answers, key),
      ...(asked.askedAt === undefined ? {} : { askedAt: asked.askedAt }),
      ...(answeredAt === undefined ? {} : { answeredAt }),
    };
  });
  const traceId = record.traceContext === undefined ? undefined : FLOW_TRACE_ID.exec(record.traceContext)?.[1];
  return {
    taskId: record.taskId,
    tool: record.tool,
    version: record.version,
    status: record.status,
    phase: record.phase,
    states: terminal ? [] : activeStates((record.snapshot as { value?: unknown } | undefined)?.value),
    // As tasks/get says it: a completed task's message is how it ended, not its last progress.
    ...(record.status === 'completed'
      ? { statusMessage: completedMessage(record.result) }
      : record.statusMessage === undefined
        ? {}
        : { statusMessage: record.statusMessage }),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    expiresAt: record.createdAt + record.ttlMs,
    principal: record.principal,
    ...(record.runningJob ? { runningJob: record.runningJob } : {}),
    ...optional('instance', lastInstance(record.history)),
    claimed: typeof record.runningStep === 'string' && record.runningStep.length > 0,
    cancelRequested: record.cancelRequested,
    questions,
    timers: record.timers.map((t) => ({ id: t.id, dueAt: t.dueAt })).sort((a, b) => a.dueAt - b.dueAt),
    ...(traceId ? { traceId } : {}),
    ...(record.status === 'failed' && record.error ? { error: record.error } : {}),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

export function describeTask(record: Readonly<TaskRecord>): TaskDetail {
  const summary = summarizeTask(record);
  const history = record.history;
  return {
    ...summary,
    ...(record.status === 'completed' && record.result ? { result: record.result } : {}),
    ...(history
      ? {
          timeline: timelineOf(record),
          ...optional('timelineDropped', history.dropped),
          visited: [...new Set([...(history.visited ?? []), ...summary.states])],
        }
      : {}),
  };
}
