/**
 * When a task step may stop: the machine is done, failed, waiting for input, or only waiting on
 * timers that are far enough away to be worth persisting (a durable timer). Unlike a synchronous
 * round, a step has no reason to wait for a timer: it records it and the queue wakes the task.
 */
import { waitFor, type AnyActor, type AnyMachineSnapshot } from 'xstate';
import { INPUT_TAG } from '../authoring/input-states.js';
import { pendingWork } from '../flow/pause-check.js';
import { pendingTimers } from './scheduled-timers.js';

export type StepSettled =
  | { kind: 'done'; output: unknown }
  | { kind: 'error'; error: unknown }
  | { kind: 'waiting'; snapshot: AnyMachineSnapshot }
  /** Nothing runs and no question waits: only timers, the nearest of them later than `inlineTimerMs`. */
  | { kind: 'sleeping'; snapshot: AnyMachineSnapshot }
  | { kind: 'stuck'; value: unknown }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

function classify(
  actor: AnyActor,
  snapshot: AnyMachineSnapshot,
  now: () => number,
  inlineTimerMs: number,
): StepSettled | undefined {
  if (snapshot.status === 'done') return { kind: 'done', output: snapshot.output };
  if (snapshot.status === 'error') return { kind: 'error', error: snapshot.error };
  if (snapshot.status !== 'active') return { kind: 'aborted' };
  // Invoked or spawned work still going (an idle child machine is not work: it waits for events).
  const work = pendingWork(actor, snapshot);
  if (work.finishing.length > 0 || work.endless.length > 0) return undefined;
  const timers = pendingTimers(actor);
  const nearest = Math.min(...timers.map((t) => t.dueAt));
  // A timer about to fire (or one that woke this step) is waited for here, even at a question:
  // it may move the machine on, and persisting it only to wake up again at once would loop.
  if (nearest - now() <= inlineTimerMs) return undefined;
  if (snapshot.hasTag(INPUT_TAG)) return { kind: 'waiting', snapshot };
  if (timers.length === 0) return { kind: 'stuck', value: snapshot.value };
  return { kind: 'sleeping', snapshot };
}

export async function settleStep(
  actor: AnyActor,
  options: { budgetMs: number; signal: AbortSignal; now: () => number; inlineTimerMs: number },
): Promise<StepSettled> {
  const deadline = performance.now() + options.budgetMs;
  const check = (snapshot: AnyMachineSnapshot) => classify(actor, snapshot, options.now, options.inlineTimerMs);
  const now = () => check(actor.getSnapshot() as AnyMachineSnapshot);
  let settled = now();
  while (!settled) {
    try {
      await waitFor(actor, (snapshot) => check(snapshot as AnyMachineSnapshot) !== undefined, {
        timeout: Math.max(0, deadline - performance.now()),
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal.aborted) return { kind: 'aborted' };
      const latest = actor.getSnapshot() as AnyMachineSnapshot;
      if (latest.status === 'error') return { kind: 'error', error: latest.error };
      const late = now();
      if (late) return late;
      if (error instanceof Error && error.message.startsWith('Timeout')) return { kind: 'timeout' };
      return { kind: 'error', error };
    }
    // The predicate sees each snapshot as it is emitted, possibly with an event still queued
    // (a child that finished synchronously reports to its parent after the parent's step).
    // By the time waitFor resolves the queue has run, so judge the actor as it is now.
    settled = now();
  }
  return settled;
}
