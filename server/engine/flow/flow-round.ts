/**
 * What a caller hands one round of a flow (`FlowCall`) and what it gets back (`FlowOutcome`):
 * the engine's contract with the protocol layer and the test kit.
 */
import type { AnyStateMachine } from 'xstate';
import type { FlowDefinition } from '../authoring/flow-definition.js';
import type { LogReport } from '../authoring/log-reports.js';
import type { Cancellation } from '../cancellation.js';
import type { ClientCapabilities, InputRequest } from '../mcp-shapes.js';
import type { Progress, TaskTimer } from '../round/index.js';
import type { RequestTelemetry } from '../../telemetry/index.js';

export type { Progress };

export interface FlowCall {
  flow: FlowDefinition;
  arguments: Record<string, unknown>;
  /** Who is calling, from the auth hook (`anonymous` when there is none). */
  principal: string;
  /** Whose quota a single-use claim counts against (default: the principal). */
  quotaOwner?: string;
  clientCapabilities: ClientCapabilities;
  inputResponses?: unknown;
  requestState?: unknown;
  /** Aborted when the caller goes away; a Cancellation makes its AbortSignal only if the round waits. */
  signal?: AbortSignal | Cancellation | undefined;
  /** Receives the machine's progress reports during this round (only increasing values). */
  onProgress?: ((report: Progress) => void) | undefined;
  /**
   * The client takes tasks and the tool may run as one: stop where long work starts and answer
   * `task` with the snapshot to continue from (round/task-handover.ts).
   */
  handover?: boolean;
  /** Receives the machine's log reports (`reportLog`) during this round. */
  onLog?: ((report: LogReport) => void) | undefined;
  /** The request's telemetry, when it is on: the round's span is its child (telemetry/). */
  trace?: RequestTelemetry;
}

export type FlowOutcome =
  | { kind: 'complete'; output: unknown }
  | { kind: 'failed'; message: string }
  | { kind: 'input_required'; inputRequests: Record<string, InputRequest>; requestState: string }
  /**
   * Only with `handover`: the flow continues as a task from this persisted snapshot and these
   * timers, on `machine` (the tool's, or a kept earlier version's: the task is pinned to it).
   */
  | {
      kind: 'task';
      snapshot: Record<string, unknown>;
      timers: TaskTimer[];
      machine: AnyStateMachine;
      traceContext?: string | undefined;
    }
  | { kind: 'aborted' };
