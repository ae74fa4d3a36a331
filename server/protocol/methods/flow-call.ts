/**
 * What tools/call, prompts/get and resources/read share: run one round of a flow for this
 * request, with progress forwarded when the client sent a progressToken, and answer either the
 * method's complete result or `input_required` (spec, basic/patterns/mrtr).
 */
import type { FlowCall, FlowDefinition, FlowEngine, FlowOutcome } from '../../engine/index.js';
import { CANCELLED, type Handled, type MethodContext, type MethodResult } from '../method-context.js';

export interface FlowRound {
  flow: FlowDefinition;
  arguments: Record<string, unknown>;
  /** Turns a finished flow (complete or failed) into the method's result. */
  finish: (outcome: Extract<FlowOutcome, { kind: 'complete' | 'failed' }>) => MethodResult;
  /**
   * Set when the client takes tasks and the flow may run as one: called where the round hands
   * over (engine/round/task-handover.ts), it creates the task and answers `CreateTaskResult`.
   */
  startTask?: (outcome: Extract<FlowOutcome, { kind: 'task' }>) => Promise<MethodResult>;
}

/**
 * Answers without a promise when the round settled without waiting (as most do): the dispatcher
 * and the endpoint then write the answer in the same pass, with no microtask between the layers.
 */
export function runFlowRound(engine: FlowEngine, context: MethodContext, round: FlowRound): Handled {
  const { params, meta, principal, cancellation, notify } = context;
  const { progressToken } = meta;
  const run = context.runFlow ?? runHere;
  // Built field by field: this runs on every request, and spreading optional parts makes an object each.
  const call: FlowCall = {
    flow: round.flow,
    arguments: round.arguments,
    principal: principal.id,
    // Anonymous callers share one id: a quota per principal would let one of them use up everyone's.
    // The prefixes keep a principal named like an address from sharing that address's quota.
    quotaOwner:
      principal.authenticated || !principal.client ? `principal:${principal.id}` : `address:${principal.client}`,
    clientCapabilities: meta.clientCapabilities,
    signal: cancellation,
  };
  if (params.inputResponses !== undefined) call.inputResponses = params.inputResponses;
  if (params.requestState !== undefined) call.requestState = params.requestState;
  if (round.startTask) call.handover = true;
  if (context.trace) call.trace = context.trace;
  if (progressToken !== undefined) {
    call.onProgress = (report) => notify({ method: 'notifications/progress', params: { progressToken, ...report } });
  }
  const outcome = run(engine, call);
  return outcome instanceof Promise ? outcome.then((later) => resultOf(round, later)) : resultOf(round, outcome);
}

function resultOf(round: FlowRound, outcome: FlowOutcome): Handled {
  switch (outcome.kind) {
    case 'aborted':
      return CANCELLED;
    case 'input_required':
      // Not cacheable: no ttlMs or cacheScope (spec, server/utilities/caching).
      return { resultType: 'input_required', inputRequests: outcome.inputRequests, requestState: outcome.requestState };
    case 'task':
      // Only requested with startTask set, so this cannot be missing.
      return round.startTask!(outcome);
    default:
      return round.finish(outcome);
  }
}

/** A round runs in this process unless the method context says otherwise (the 2025-11-25 layer). */
function runHere(engine: FlowEngine, call: FlowCall): FlowOutcome | Promise<FlowOutcome> {
  return engine.run(call);
}

/** Whether this request continues a flow: its result must not be cached (spec, caching). */
export function isRetry(params: Record<string, unknown>): boolean {
  return params.requestState !== undefined || params.inputResponses !== undefined;
}
