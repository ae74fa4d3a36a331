/**
 * What a caller hands the round kernel (round-kernel.ts): the machine and where it continues
 * from, the answers it was given, the budget, and where its reports go. Two callers, two modes:
 * a round inside one request (`request`, flow/flow-engine.ts) and a step of a task on a worker
 * (`step`, tasks/task-runner.ts).
 */
import type { AnyStateMachine } from 'xstate';
import type { Cancellation } from '../cancellation.js';
import type { LogReport } from '../authoring/log-reports.js';
import type { ClientCapabilities } from '../mcp-shapes.js';
import type { Progress } from './machine-reports.js';
import type { PageRefMinter } from './pending-questions.js';
import type { TaskTimer } from './scheduled-timers.js';

interface RoundBasis {
  /** The tool, prompt or resource, as messages name it. */
  readonly name: string;
  readonly machine: AnyStateMachine;
  /** The machine's input: the call's arguments. */
  readonly input: Record<string, unknown>;
  /** The persisted snapshot to continue from; the machine starts afresh without one. */
  readonly snapshot?: unknown;
  readonly clientCapabilities: ClientCapabilities;
  /** The question keys asked last time, and the responses to them by question key. */
  readonly asked?: readonly string[] | undefined;
  readonly responses?: Record<string, unknown> | undefined;
  /** The round's time budget in ms: one for the whole round, fallbacks and answers ahead included. */
  readonly budgetMs: number;
  /** Stops the round (the client went away, the task was cancelled). */
  readonly signal?: AbortSignal | Cancellation | undefined;
  /** Receives the machine's progress reports (only increasing values). */
  readonly onProgress?: ((report: Progress) => void) | undefined;
  /** What every log line of this round names: the target, or the task and its tool. */
  readonly logFields: Readonly<Record<string, unknown>>;
}

/** A round inside one request: nothing survives it but what the caller seals. */
export interface RequestRoundSpec extends RoundBasis {
  readonly mode: 'request';
  /**
   * Stop where long work starts, with the machine's named actors parked, and answer `handover`
   * with the snapshot a task continues from (task-handover.ts).
   */
  readonly handover?: boolean | undefined;
  /** Rounds this flow had before this one (0 on a first call), and how many it may have. */
  readonly round: number;
  readonly maxRounds: number;
  /** A first call's answers sent ahead: they answer the first questions the flow asks. */
  readonly answersAhead?: Record<string, unknown> | undefined;
  readonly onLog?: ((report: LogReport) => void) | undefined;
  /** Mints the page references URL questions put in their URLs; an empty one without it. */
  readonly pageRefs?: PageRefMinter | undefined;
}

/** A step of a task on a worker: timers are durable, and the snapshot goes back to the store. */
export interface TaskStepSpec extends RoundBasis {
  readonly mode: 'step';
  /** The task, as idempotencyKey() scopes its effects. */
  readonly taskId: string;
  /** The timers recorded at the last pause, armed again in the restored actor. */
  readonly timers: readonly TaskTimer[];
  /** Now on the wall clock XState's timers run on (scheduled-timers.ts). */
  readonly wallNow: number;
  /** Timers due sooner than this are waited for inside the step instead of persisted. */
  readonly inlineTimerMs: number;
  /** The schema each form question was asked with, by question key (the recorded requests). */
  readonly askedSchemas?: Record<string, object | undefined>;
  /** Told the machine's state value after each of its microsteps (the task's timeline: states visited). */
  readonly onStates?: ((value: unknown) => void) | undefined;
}

export type RoundSpec = RequestRoundSpec | TaskStepSpec;
