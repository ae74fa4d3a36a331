/**
 * `after` timers across a pause. XState keeps delayed events in the actor system, not in the
 * persisted snapshot (../shared reference: "Delayed transitions are lost"), so a task records them
 * itself: each pending timer's event and when it is due, and arms them again in the restored
 * actor; the queue wakes the task when the nearest one comes due.
 */
import type { AnyActor, AnyEventObject } from 'xstate';

export interface TaskTimer {
  /** XState's id for the delayed event (`xstate.after.<delay>.<state id>`); a new timer with the same id replaces it. */
  id: string;
  event: AnyEventObject;
  /** When it fires, in ms since the epoch. */
  dueAt: number;
}

interface ScheduledEvent {
  id?: string;
  event: AnyEventObject;
  delay: number;
  startedAt: number;
}

/** The timers an actor has pending now. */
export function pendingTimers(actor: AnyActor): TaskTimer[] {
  const scheduled = (actor.system.getSnapshot() as { _scheduledEvents?: Record<string, ScheduledEvent> })
    ._scheduledEvents;
  return Object.values(scheduled ?? {}).map((s) => ({
    id: s.id ?? s.event.type,
    event: { ...s.event },
    dueAt: s.startedAt + s.delay,
  }));
}

/**
 * Arms recorded timers again in a restored actor, as XState would have kept them: a timer already
 * due fires on the next tick. XState cancels it by id when its state is left, as for any timer.
 */
export function rearmTimers(actor: AnyActor, timers: readonly TaskTimer[], now: number): void {
  const scheduler = (actor.system as unknown as { scheduler: Scheduler }).scheduler;
  for (const timer of timers) scheduler.schedule(actor, actor, timer.event, Math.max(0, timer.dueAt - now), timer.id);
}

interface Scheduler {
  schedule(source: AnyActor, target: AnyActor, event: AnyEventObject, delay: number, id: string): void;
}
