/**
 * Runs one round of a single-use state at most once across every instance sharing the guard
 * (docs/security.md, "Single use"). A second presentation gets the first run's outcome (the same
 * result, or the same error); while the first run is going it is refused; a state whose run was
 * cancelled, or whose instance died mid-run, stays consumed.
 */
import superjson from 'superjson';
import { EngineError, type EngineErrorReason } from '../engine-error.js';
import type { FlowOutcome } from './flow-round.js';
import type { Logger } from '../logger.js';
import type { ClaimScope, GuardClaim, ReplayGuard } from '../state/replay-guard.js';

/** Beyond the round's time budget, how long a claim waits before its run counts as abandoned. */
const CLAIM_MARGIN_MS = 5_000;

/** What the guard keeps of a run, to answer a second presentation the same way. */
type RecordedOutcome =
  | Exclude<FlowOutcome, { kind: 'aborted' }>
  | { kind: 'consumed' }
  | { kind: 'error'; reason: EngineErrorReason; message: string; data?: Record<string, unknown> | undefined };

const alreadyUsed = () => new EngineError('state_consumed', 'This requestState was already used; start the call again');

function replay(text: string): FlowOutcome {
  const recorded = superjson.parse<RecordedOutcome>(text);
  if (recorded.kind === 'consumed') throw alreadyUsed();
  if (recorded.kind === 'error') throw new EngineError(recorded.reason, recorded.message, recorded.data);
  return recorded;
}

export interface SingleUseRun {
  guard: ReplayGuard;
  logger: Logger;
  /** The state's unique id and expiry (epoch seconds), from its claims. */
  id: string;
  expiresAt: number;
  now: number;
  budgetMs: number;
  /** For logs. */
  target: string;
  /** Who claims (quota) and when the state was issued (epoch). */
  scope: ClaimScope;
  /**
   * The presented state, when this presentation answers none of the questions it asked. Such a
   * round delivers no event, so it cannot run an effect: it is answered with the same questions
   * and the same state, without a claim. Claiming it would let one client use up claims (and its
   * quota) by resending states with no answers; handing out a fresh state without claiming the old
   * one would fork the flow into two states that could each run the effect once.
   */
  unanswered?: string;
  /** Told when a second presentation is refused or replayed (telemetry's refusal count). */
  onRefused?: (reason: 'replayed' | 'in_use') => void;
}

async function claimed(guard: ReplayGuard, id: string): Promise<boolean> {
  try {
    return (await guard.peek?.(id)) ?? true;
  } catch {
    // Without the guard the re-ask still runs nothing; an answered presentation fails closed.
    return false;
  }
}

export async function runOnce(spec: SingleUseRun, round: () => Promise<FlowOutcome>): Promise<FlowOutcome> {
  const { guard, id } = spec;
  if (spec.unanswered !== undefined && !(await claimed(guard, id))) {
    const outcome = await round();
    return outcome.kind === 'input_required' ? { ...outcome, requestState: spec.unanswered } : outcome;
  }
  let claim: GuardClaim;
  try {
    const ttlSeconds = Math.max(1, spec.expiresAt - Math.floor(spec.now / 1000));
    claim = await guard.claim(id, ttlSeconds, spec.now + spec.budgetMs + CLAIM_MARGIN_MS, spec.scope);
  } catch (error) {
    spec.logger.error('replay_guard_unavailable', { target: spec.target, error: String(error) });
    throw new EngineError('guard_unavailable', 'The single-use guard is unavailable; nothing was run');
  }
  if (claim.status === 'in_progress') spec.onRefused?.('in_use');
  else if (claim.status === 'settled' || claim.status === 'abandoned' || claim.status === 'before_epoch') {
    spec.onRefused?.('replayed');
  }
  if (claim.status === 'in_progress') {
    throw new EngineError('state_in_use', 'This requestState is being processed by another request');
  }
  if (claim.status === 'settled') return replay(claim.outcome);
  if (claim.status === 'abandoned') throw alreadyUsed();
  if (claim.status === 'before_epoch') {
    spec.logger.warn('request_state_before_guard_epoch', { target: spec.target });
    throw alreadyUsed();
  }
  if (claim.status === 'over_quota') {
    spec.logger.warn('single_use_quota_reached', { target: spec.target, owner: spec.scope.owner, quota: claim.quota });
    throw new EngineError(
      'quota_exceeded',
      `This caller already holds ${claim.quota} single-use steps that are in progress or recently run; nothing was run. Retry once some of its states have expired`,
      { quota: claim.quota },
    );
  }

  let record: RecordedOutcome | undefined;
  try {
    const outcome = await round();
    record = outcome.kind === 'aborted' ? { kind: 'consumed' } : outcome;
    return outcome;
  } catch (error) {
    // Malformed answers are refused before any event is sent: give the claim back so the client
    // may correct them and resend the same state.
    if (error instanceof EngineError && error.reason === 'invalid_responses') {
      await guard.release(id).catch(() => {});
      throw error;
    }
    record =
      error instanceof EngineError
        ? { kind: 'error', reason: error.reason, message: error.message, data: error.data }
        : { kind: 'error', reason: 'internal', message: 'Internal error' };
    throw error;
  } finally {
    if (record) await settle(spec, superjson.stringify(record));
  }
}

/** Pauses between tries of a settle Redis refused (a failover takes a few seconds). */
const SETTLE_RETRY_MS = [250, 500, 1000, 2000, 4000, 8000];

/**
 * Records the run's outcome, so a second presentation gets it. When Redis refuses (a failover
 * under way), the answer does not wait: the outcome is written again in the background until it
 * lands or the claim's deadline passes (after which a presentation counts the state as used).
 */
async function settle(spec: SingleUseRun, outcome: string): Promise<void> {
  const deadline = spec.now + spec.budgetMs + CLAIM_MARGIN_MS;
  const failed = (error: unknown) =>
    spec.logger.error('replay_guard_settle_failed', { target: spec.target, error: String(error) });
  try {
    await spec.guard.settle(spec.id, outcome);
    return;
  } catch (error) {
    failed(error);
  }
  void (async () => {
    for (const pause of SETTLE_RETRY_MS) {
      await new Promise((resolve) => setTimeout(resolve, pause).unref?.());
      if (Date.now() + pause > deadline) return;
      try {
        await spec.guard.settle(spec.id, outcome);
        spec.logger.info('replay_guard_settled_late', { target: spec.target });
        return;
      } catch {
        // Still down: the next pause is longer.
      }
    }
  })();
}
