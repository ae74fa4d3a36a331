/**
 * Runs an actor until it settles: done, failed, or waiting for input with nothing running.
 * Invoked promises run to completion inside the round, under a time budget and an abort signal;
 * the caller persists the snapshot only at the settle point, so a sealed state never holds work
 * in flight. Work that would outlive a question (a callback, an observable, a delayed event)
 * fails the round at once instead of holding it for the whole budget (pause-check.ts).
 */
import { waitFor, type AnyActor, type AnyMachineSnapshot } from 'xstate';
import { INPUT_TAG } from '../authoring/input-states.js';
import { blockedAtQuestion, describeWork, pendingWork } from './pause-check.js';
import { pendingQuestions } from './pending-questions.js';
import { TASK_FIX } from './round-crossing-checks.js';

export type Settled =
  | { kind: 'done'; output: unknown }
  | { kind: 'error'; error: unknown }
  | { kind: 'waiting'; snapshot: AnyMachineSnapshot }
  /** Active, nothing running, and not an input state: the machine can never move again. */
  | { kind: 'stuck'; value: unknown }
  /** Work still going that cannot cross a round or finish within it; `reason` names it and the fix. */
  | { kind: 'blocked'; reason: string }
  | { kind: 'timeout'; pending: string }
  | { kind: 'aborted' }
  /** The caller's handover point was reached (a task starts here); the actor is left as it is. */
  | { kind: 'handover'; snapshot: AnyMachineSnapshot };

/**
 * Says when a round stops to hand the actor's work over to a task: checked on every snapshot
 * while the machine is still active, before it is classified as busy or waiting.
 */
export type HandoverPoint = (actor: AnyActor, snapshot: AnyMachineSnapshot) => boolean;

export interface SettleOptions {
  /** Delayed events survive a pause (task mode keeps them as durable timers). */
  durableTimers?: boolean;
  /** Where the round hands over to a task (tasks/task-handover.ts). */
  handover?: HandoverPoint;
}

function classify(actor: AnyActor, snapshot: AnyMachineSnapshot, deadline: number, options: SettleOptions) {
  if (snapshot.status === 'done') return { kind: 'done', output: snapshot.output } as const;
  if (snapshot.status === 'error') return { kind: 'error', error: snapshot.error } as const;
  if (snapshot.status !== 'active') return { kind: 'aborted' } as const;
  if (options.handover?.(actor, snapshot)) return { kind: 'handover', snapshot } as const;
  const work = pendingWork(actor, snapshot);
  if (options.durableTimers) work.timers = [];
  // A running promise finishes by itself, and may move the machine on: wait for it.
  if (work.finishing.length > 0) return undefined;
  if (snapshot.hasTag(INPUT_TAG)) {
    if (work.endless.length === 0 && work.timers.length === 0) return { kind: 'waiting', snapshot } as const;
    const states = pendingQuestions(snapshot).map((p) => p.stateId);
    return { kind: 'blocked', reason: blockedAtQuestion(work, states) } as const;
  }
  // A timer that fires after the budget can only end in a timeout, unless a callback or
  // observable still running moves the machine on first.
  const late = work.timers.find((timer) => timer.remainingMs > deadline - performance.now());
  if (late && work.endless.length === 0) {
    return {
      kind: 'blocked',
      reason: `${late.label} would fire after the round's time budget. Fix: use a shorter delay, ${TASK_FIX}`,
    } as const;
  }
  // A callback may still send an event, a timer will fire: keep waiting.
  if (work.endless.length > 0 || work.timers.length > 0) return undefined;
  return { kind: 'stuck', value: snapshot.value } as const;
}

/** The settled outcome of `actor` as it is now, or undefined while work is still running. */
export function settledNow(actor: AnyActor, deadline: number, options: SettleOptions): Settled | undefined {
  return classify(actor, actor.getSnapshot() as AnyMachineSnapshot, deadline, options);
}

export async function settle(
  actor: AnyActor,
  budgetMs: number,
  signal?: AbortSignal,
  options: SettleOptions = {},
): Promise<Settled> {
  const deadline = performance.now() + budgetMs;
  const now = () => classify(actor, actor.getSnapshot(), deadline, options);
  let settled = now();
  while (!settled) {
    try {
      await waitFor(actor, (snapshot) => classify(actor, snapshot, deadline, options) !== undefined, {
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
