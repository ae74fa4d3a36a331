/**
 * What a machine still has going: the children that run (promises, which finish by themselves;
 * callbacks and observables, which run until stopped) and the delayed events pending. A paused
 * state carries no work in flight (docs/xstate.md): in a round a running promise is waited for,
 * but a callback or observable child, or a delayed event, would be lost or restarted by the next
 * round, so a round that reaches a question with one fails at once and names it (settle.ts).
 * Idle children (a machine or transition actor waiting for events, a finished promise) cross
 * rounds as XState persists them.
 */
import type { AnyActor, AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { actorKind, runsUntilStopped } from './actor-kinds.js';
import { TASK_FIX } from './round-crossing-checks.js';

export interface PendingTimer {
  /** How the timer is named in messages: its event and the actor that scheduled it. */
  label: string;
  remainingMs: number;
}

export interface PendingWork {
  /** Children that finish by themselves (promises still running): waiting for them is right. */
  finishing: string[];
  /** Children that run until stopped (callbacks, observables, logic of unknown kind). */
  endless: string[];
  timers: PendingTimer[];
}

interface ScheduledEvent {
  event: { type: string };
  delay: number;
  startedAt: number;
  source: { id: string };
}

function visitChildren(snapshot: AnyMachineSnapshot, prefix: string, work: PendingWork) {
  for (const [id, child] of Object.entries(snapshot.children as Record<string, AnyActorRef | undefined>)) {
    const childSnapshot = child?.getSnapshot() as AnyMachineSnapshot | undefined;
    if (!child || childSnapshot?.status !== 'active') continue;
    const path = prefix + id;
    const kind = actorKind((child as unknown as { logic: unknown }).logic);
    if (kind === 'machine') visitChildren(childSnapshot, `${path}/`, work);
    else if (kind === 'promise') work.finishing.push(`child "${path}"`);
    else if (runsUntilStopped(kind))
      work.endless.push(`child "${path}" (${kind === 'other' ? 'an' : 'a'} ${kind} actor)`);
  }
}

/** Everything still running under `actor`, children of children included. */
export function pendingWork(actor: AnyActor, snapshot: AnyMachineSnapshot): PendingWork {
  const work: PendingWork = { finishing: [], endless: [], timers: [] };
  visitChildren(snapshot, '', work);
  // Delayed events live in the actor system (one for the whole tree), not in any snapshot.
  const scheduled = (actor.system.getSnapshot() as { _scheduledEvents?: Record<string, ScheduledEvent> })
    ._scheduledEvents;
  const now = Date.now();
  for (const timer of Object.values(scheduled ?? {})) {
    work.timers.push({
      label: `timer "${timer.event.type}" (${timer.delay} ms, from "${timer.source.id}")`,
      remainingMs: timer.startedAt + timer.delay - now,
    });
  }
  return work;
}

export function describeWork(work: PendingWork): string {
  return [...work.finishing, ...work.endless, ...work.timers.map((t) => t.label)].join(', ');
}

/** Why a flow at a question cannot pause with `work` still going, and how to fix it. */
export function blockedAtQuestion(work: PendingWork, questionStates: string[]): string {
  const where = questionStates.map((id) => `"${id}"`).join(', ');
  const fixes: string[] = [];
  if (work.endless.length > 0) {
    fixes.push(
      'stop it before asking (leave the state that invokes it, or stopChild), or spawn a machine by name that waits idle for events',
    );
  }
  if (work.timers.length > 0) {
    fixes.push(
      `a delayed event cannot cross a round: cancel it before asking, or store a deadline in context and check it with a guard, ${TASK_FIX}`,
    );
  }
  return `it waits for input at ${where} while ${[...work.endless, ...work.timers.map((t) => t.label)].join(', ')} is still running. Fix: ${fixes.join('; ')}`;
}
