/**
 * How a round ended, as the kernel says it: each caller turns it into its own answer (a flow's
 * `FlowOutcome` for the protocol, a task's record). `failed` is the tool's own failure, answered
 * as a tool error; `refused` is one the protocol answers as an error (the engine's reason, mapped
 * at the protocol's one seam).
 */
import type { AnyMachineSnapshot } from 'xstate';
import type { EngineError } from '../engine-error.js';
import type { InputRequest } from '../mcp-shapes.js';
import type { Persisted } from './paused-snapshot.js';
import type { TaskTimer } from './scheduled-timers.js';

export type FailureReason =
  /** The machine failed (an action or an actor threw). */
  | 'tool_error'
  /** Its work did not finish within the budget. */
  | 'timeout'
  /** It waits on something that cannot cross a round (a callback, a timer at a question). */
  | 'blocked'
  /** A question's schema computed from context is not a form schema. */
  | 'bad_question'
  /** Its snapshot cannot be persisted (context superjson cannot carry, a child not restorable). */
  | 'unpausable'
  /** It asked for input more often than a flow may. */
  | 'round_limit';

/** Where a paused machine continues from: its snapshot, and the timers it had pending. */
export interface Pause {
  persisted: Persisted;
  timers: TaskTimer[];
}

export type RoundOutcome =
  | { kind: 'complete'; output: unknown }
  | { kind: 'failed'; reason: FailureReason; message: string }
  | { kind: 'refused'; error: EngineError }
  /** Waiting for input: the questions by key (document order), and why any is asked again. */
  | (Pause & {
      kind: 'asking';
      inputRequests: Record<string, InputRequest>;
      keys: string[];
      retryReasons: Record<string, string>;
      /** The settled snapshot: its tags, its value, the states that ask. */
      snapshot: AnyMachineSnapshot;
    })
  /** A step with only timers pending, none due soon: the queue wakes the task at the nearest. */
  | (Pause & { kind: 'sleeping' })
  /** A request reached the point where a task takes over. */
  | (Pause & { kind: 'handover' })
  | { kind: 'aborted' };

/** A round in a request never sleeps: its timers must fire within it. */
export type RequestRoundOutcome = Exclude<RoundOutcome, { kind: 'sleeping' }>;
/** A task step never hands over: it is the task. */
export type TaskStepOutcome = Exclude<RoundOutcome, { kind: 'handover' }>;
