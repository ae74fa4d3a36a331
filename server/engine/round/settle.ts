/**
 * Runs an actor until it settles: done, failed, or waiting with nothing running that could move
 * it on. Invoked promises run to completion inside the round, under a deadline and an abort
 * signal; the caller persists the snapshot only at the settle point, so a paused state never
 * holds work in flight.
 *
 * One rule for a round in a request and a step of a task; they differ only in what a pending
 * `after` timer means. In a request (`IN_ROUND`) nothing survives the round but the sealed
 * snapshot, so a timer must fire within the round: one that would fire later, or any at a
 * question, fails the round at once instead of holding it for the whole budget (pending-work.ts).
 * In a task (`durableTimers`) timers are recorded with the snapshot and the queue wakes the task
 * (scheduled-timers.ts): a step waits only for a timer about to fire and otherwise sleeps.
 */
import { waitFor, type AnyActor, type AnyMachineSnapshot } from 'xstate';
import { INPUT_TAG } from '../authoring/input-states.js';
import { blockedAtQuestion, describeWork, pendingWork, type PendingWork } from './pending-work.js';
import { pendingQuestions } from './pending-questions.js';
import { TASK_FIX } from './round-crossing-checks.js';

export type Settled =
  | { kind: 'done'; output: unknown }
  | { kind: 'error'; error: unknown }
  | { kind: 'waiting'; snapshot: AnyMachineSnapshot }
  /** Durable timers only: nothing runs and no question waits, only timers later than `inlineTimerMs`. */
  | { kind: 'sleeping'; snapshot: AnyMachineSnapshot }
  /** Active, nothing running, and not an input state: the machine can never move again. */
  | { kind: 'stuck'; value: unknown }
  /** In a round: work still going that cannot cross it or finish within it; `reason` names it and the fix. */
  | { kind: 'blocked'; reason: string }
  | { kind: 'timeout'; pending: string }
  | { kind: 'aborted' }
  /** The handover point was reached (a task starts here); the actor is left as it is. */
  | { kind: 'handover'; snapshot: AnyMachineSnapshot };

/**
 * Says when a round stops to hand the actor's work over to a task: checked on every snapshot
 * while the machine is still active, before it is classified as busy or waiting.
 */
export type HandoverPoint = (actor: AnyActor, snapshot: AnyMachineSnapshot) => boolean;

export interface SettleRule {
  /**
   * Timers are recorded and survive the pause (a task step): one due within this many ms is
   * waited for, a later one is left to wake the task. Absent in a round in a request.
   */
  durableTimers?: { inlineTimerMs: number };
  /** Where the round hands over to a task (task-handover.ts). */
  handover?: HandoverPoint;
}

/** A round in a request: timers must fire within it. */
export const IN_ROUND: SettleRule = {};

function classify(
  actor: AnyActor,
  snapshot: AnyMachineSnapshot,
  deadline: number,
  rule: SettleRule,
): Settled | undefined {
  if (snapshot.status === 'done') return { kind: 'done', output: snapshot.output };
  if (snapshot.status === 'error') return { kind: 'error', error: snapshot.error };
  if (snapshot.status !== 'active') return { kind: 'aborted' };
  if (rule.handover?.(actor, snapshot)) return { kind: 'handover', snapshot };
  const work = pendingWork(actor, snapshot);
  // A running promise finishes by itself, and may move the machine on: wait for it.
  if (work.finishing.length > 0) return undefined;
  return rule.durableTimers
    ? classifyWithDurableTimers(snapshot, work, rule.durableTimers.inlineTimerMs)
    : classifyInRound(snapshot, work, deadline);
}

function classifyInRound(snapshot: AnyMachineSnapshot, work: PendingWork, deadline: number): Settled | undefined {
  if (snapshot.hasTag(INPUT_TAG)) {
    if (work.endless.length === 0 && work.timers.length === 0) return { kind: 'waiting', snapshot };
    const states = pendingQuestions(snapshot).map((p) => p.stateId);
    return { kind: 'blocked', reason: blockedAtQuestion(work, states) };
  }
  // A timer that fires after the budget can only end in a timeout, unless a callback or
  // observable still running moves the machine on first.
  const late = work.timers.find((timer) => timer.remainingMs > deadline - performance.now());
  if (late && work.endless.length === 0) {
    return {
      kind: 'blocked',
      reason: `${late.label} would fire after the round's time budget. Fix: use a shorter delay, ${TASK_FIX}`,
    };
  }
  // A callback may still send an event, a timer will fire: keep waiting.
  if (work.endless.length > 0 || work.timers.length > 0) return undefined;
  return { kind: 'stuck', value: snapshot.value };
}

function classifyWithDurableTimers(
  snapshot: AnyMachineSnapshot,
  work: PendingWork,
  inlineTimerMs: number,
): Settled | undefined {
  // A callback or observable may still send an event: a step has no question to refuse, so it waits.
  if (work.endless.length > 0) return undefined;
  const nearest = Math.min(...work.timers.map((timer) => timer.remainingMs));
  // A timer about to fire (or one that woke this step) is waited for here, even at a question:
  // it may move the machine on, and persisting it only to wake up again at once would loop.
  if (nearest <= inlineTimerMs) return undefined;
  if (snapshot.hasTag(INPUT_TAG)) return { kind: 'waiting', snapshot };
  if (work.timers.length === 0) return { kind: 'stuck', value: snapshot.value };
  return { kind: 'sleeping', snapshot };
}

/**
 * The settled outcome of `actor` as it is now, or undefined while work is still running. Most
 * rounds settle without waiting: they are answered from this, without a promise or a timer.
 */
export function settledNow(actor: AnyActor, deadline: number, rule: SettleRule): Settled | undefined {
  return classify(actor, actor.getSnapshot() as AnyMachineSnapshot, deadline, rule);
}

export async function settle(
  actor: AnyActor,
  budgetMs: number,
  signal?: AbortSignal,
  rule: SettleRule = IN_ROUND,
): Promise<Settled> {
  const deadline = performance.now() + budgetMs;
  const now = () => settledNow(actor, deadline, rule);
  let settled = now();
  while (!settled) {
    try {
      await waitFor(actor, (snapshot) => classify(actor, snapshot, deadline, rule) !== undefined, {
        timeout: Math.max(0, deadline - performance.now()),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) return { kind: 'aborted' };
      const latest = actor.getSnapshot() as AnyMachineSnapshot;
      if (latest.status === 'error') return { kind: 'error', error: latest.error };
      const late = now();
      if (late) return late;
      if (error instanceof Error && error.message.startsWith('Timeout')) {
        return { kind: 'timeout', pending: describeWork(pendingWork(actor, latest)) };
      }
      return { kind: 'error', error };
    }
    // The predicate sees each snapshot as it is emitted, possibly with an event still queued
    // (a child that finished synchronously reports to its parent after the parent's step).
    // By the time waitFor resolves the queue has run, so judge the actor as it is now.
    settled = now();
  }
  return settled;
}
