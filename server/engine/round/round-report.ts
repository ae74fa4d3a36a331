/**
 * A round's outcome in the words telemetry keeps (telemetry/round-trace.ts): the outcome, its
 * reason, the question keys and the states that ask. Built only when telemetry is on; names only,
 * never an answer or a value from the machine's context.
 */
import type { FlowEnd, RoundEnd } from '../../telemetry/index.js';
import type { RoundOutcome } from './round-outcome.js';

const OUTCOME_WORDS: Record<RoundOutcome['kind'], string> = {
  complete: 'complete',
  failed: 'failed',
  refused: 'refused',
  asking: 'input_required',
  sleeping: 'sleeping',
  handover: 'task',
  aborted: 'aborted',
};

export function roundEnd(outcome: RoundOutcome, flowEnd?: FlowEnd): RoundEnd {
  const end: RoundEnd = { outcome: OUTCOME_WORDS[outcome.kind], flowEnd };
  if (outcome.kind === 'failed') end.errorType = outcome.reason;
  else if (outcome.kind === 'refused') end.errorType = outcome.error.reason;
  else if (outcome.kind === 'asking') {
    const { snapshot } = outcome;
    end.questionKeys = outcome.keys;
    end.waitingStates = () => leafPaths(snapshot.value);
  }
  return end;
}

/**
 * The active leaf states of a snapshot's value as dotted paths (`confirm`, `approve.waiting`):
 * where a waiting machine waits, read off its value (no walk over the state nodes).
 */
function leafPaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix + value];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, `${prefix}${key}.`));
}

/**
 * How a flow ended with this round, if it did: failed, or completed, declined or cancelled by
 * the answers the round was given (a decline or cancel the machine then finished on). A round
 * that asks again or hands over to a task has not ended its flow.
 */
export function flowEndOf(
  outcome: RoundOutcome,
  asked: readonly string[] | undefined,
  responses: Record<string, unknown> | undefined,
): FlowEnd | undefined {
  switch (outcome.kind) {
    case 'failed':
      return 'failed';
    case 'refused':
      return outcome.error.reason === 'internal' ? 'failed' : undefined;
    case 'aborted':
      return 'cancelled';
    case 'complete': {
      let how: FlowEnd = 'completed';
      for (const key of asked ?? (responses ? Object.keys(responses) : [])) {
        const action = (responses?.[key] as { action?: unknown } | undefined)?.action;
        if (action === 'cancel') return 'cancelled';
        if (action === 'decline') how = 'declined';
      }
      return how;
    }
    default:
      return undefined;
  }
}
