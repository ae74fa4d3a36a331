/**
 * Runs an actor until it settles: done, failed, or waiting for input with nothing running.
 * Invoked promises run to completion inside the round, under a time budget and an abort signal;
 * the caller persists the snapshot only at the settle point, so a sealed state never holds work
 * in flight.
 */
import { waitFor, type AnyActor, type AnyActorRef, type AnyMachineSnapshot } from 'xstate';
import { INPUT_TAG } from './input-states.js';

export type Settled =
  | { kind: 'done'; output: unknown }
  | { kind: 'error'; error: unknown }
  | { kind: 'waiting'; snapshot: AnyMachineSnapshot }
  /** Active, nothing running, and not an input state: the machine can never move again. */
  | { kind: 'stuck'; value: unknown }
  | { kind: 'timeout' }
  | { kind: 'aborted' }
  /** The caller's handover point was reached (a task starts here); the actor is left as it is. */
  | { kind: 'handover'; snapshot: AnyMachineSnapshot };

/**
 * Says when a round stops to hand the actor's work over to a task: checked on every snapshot
 * while the machine is still active, before it is classified as busy or waiting.
 */
export type HandoverPoint = (actor: AnyActor, snapshot: AnyMachineSnapshot) => boolean;

export function isBusy(actor: AnyActor, snapshot: AnyMachineSnapshot): boolean {
  const children = Object.values(snapshot.children as Record<string, AnyActorRef | undefined>);
  if (children.some((child) => child?.getSnapshot().status === 'active')) return true;
  // Delayed events live in the system, not in the snapshot; the registry forbids `after` on input
  // states, but a machine may still wait on a timer between two questions inside one round.
  const scheduled = (actor.system.getSnapshot() as { _scheduledEvents?: Record<string, unknown> })._scheduledEvents;
  return scheduled !== undefined && Object.keys(scheduled).length > 0;
}

function classify(actor: AnyActor, snapshot: AnyMachineSnapshot, handover?: HandoverPoint): Settled | undefined {
  if (snapshot.status === 'done') return { kind: 'done', output: snapshot.output };
  if (snapshot.status === 'error') return { kind: 'error', error: snapshot.error };
  if (snapshot.status !== 'active') return { kind: 'aborted' };
  if (handover?.(actor, snapshot)) return { kind: 'handover', snapshot };
  if (isBusy(actor, snapshot)) return undefined;
  if (snapshot.hasTag(INPUT_TAG)) return { kind: 'waiting', snapshot };
  return { kind: 'stuck', value: snapshot.value };
}

export async function settle(
  actor: AnyActor,
  budgetMs: number,
  signal?: AbortSignal,
  handover?: HandoverPoint,
): Promise<Settled> {
  const now = classify(actor, actor.getSnapshot(), handover);
  if (now) return now;
  let result: Settled | undefined;
  try {
    await waitFor(
      actor,
      (snapshot) => {
        result = classify(actor, snapshot, handover);
        return result !== undefined;
      },
      { timeout: budgetMs, ...(signal ? { signal } : {}) },
    );
  } catch (error) {
    if (signal?.aborted) return { kind: 'aborted' };
    const latest = actor.getSnapshot() as AnyMachineSnapshot;
    if (latest.status === 'error') return { kind: 'error', error: latest.error };
    if (result) return result;
    if (error instanceof Error && error.message.startsWith('Timeout')) return { kind: 'timeout' };
    return { kind: 'error', error };
  }
  return result ?? { kind: 'stuck', value: (actor.getSnapshot() as AnyMachineSnapshot).value };
}
