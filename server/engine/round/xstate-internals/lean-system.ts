/**
 * XState's actor system for one lean root actor (see index.ts): the scheduler, the keyed actors and
 * the inspectors, each made only when first used.
 */
import type { AnyActorRef, AnyEventObject } from 'xstate';
import { defaultClock, defaultLogger, toObserver, type Observer } from './actor-contract.js';
import type { LeanActor } from './lean-actor.js';

interface Scheduler {
  schedule(source: AnyActorRef, target: AnyActorRef, event: AnyEventObject, delay: number, id?: string): void;
  cancel(source: AnyActorRef, id: string): void;
  cancelAll(actorRef: AnyActorRef): void;
}

interface ScheduledEvent {
  source: AnyActorRef;
  target: AnyActorRef;
  event: AnyEventObject;
  delay: number;
  id: string;
  startedAt: number;
}

let sessionCount = 0;

/** XState's actor system (`createSystem`) for one lean root actor: its maps are made when first used. */
export class LeanSystem {
  readonly _snapshot: { _scheduledEvents: Record<string, ScheduledEvent> } = { _scheduledEvents: {} };
  readonly _clock = defaultClock;
  readonly _logger = defaultLogger;
  #keyed: Map<string, AnyActorRef> | undefined;
  #reverseKeyed: WeakMap<AnyActorRef, string> | undefined;
  #inspectors: Set<Observer> | undefined;
  #timers: Record<string, unknown> | undefined;
  #scheduler: Scheduler | undefined;

  constructor(readonly root: LeanActor) {}

  /** Whether anyone inspects this system: inspection events are built only then. */
  get inspecting(): boolean {
    return this.#inspectors !== undefined && this.#inspectors.size > 0;
  }

  get scheduler(): Scheduler {
    return (this.#scheduler ??= this.#makeScheduler());
  }

  #makeScheduler(): Scheduler {
    const timers = (this.#timers ??= {});
    const scheduled = () => this._snapshot._scheduledEvents;
    const scheduler: Scheduler = {
      schedule: (
        source: AnyActorRef,
        target: AnyActorRef,
        event: AnyEventObject,
        delay: number,
        id: string = Math.random().toString(36).slice(2),
      ) => {
        const scheduledEvent = { source, target, event, delay, id, startedAt: Date.now() };
        const key = `${source.sessionId}.${id}`;
        scheduled()[key] = scheduledEvent;
        timers[key] = this._clock.setTimeout(() => {
          delete timers[key];
          delete scheduled()[key];
          this._relay(source, target, event);
        }, delay);
      },
      cancel: (source: AnyActorRef, id: string) => {
        const key = `${source.sessionId}.${id}`;
        const timeout = timers[key];
        delete timers[key];
        delete scheduled()[key];
        if (timeout !== undefined) this._clock.clearTimeout(timeout);
      },
      cancelAll: (actorRef: AnyActorRef) => {
        for (const key in scheduled()) {
          const scheduledEvent = scheduled()[key]!;
          if (scheduledEvent.source === actorRef) scheduler.cancel(actorRef, scheduledEvent.id);
        }
      },
    };
    return scheduler;
  }

  _bookId(): string {
    return `x:lean.${sessionCount++}`;
  }

  /** XState's system keeps a map of its actors here that it never reads: this one keeps none. */
  _register(sessionId: string, _actorRef: AnyActorRef): string {
    return sessionId;
  }

  _unregister(actorRef: AnyActorRef): void {
    const systemId = this.#reverseKeyed?.get(actorRef);
    if (systemId !== undefined) {
      this.#keyed!.delete(systemId);
      this.#reverseKeyed!.delete(actorRef);
    }
  }

  get(systemId: string): AnyActorRef | undefined {
    return this.#keyed?.get(systemId);
  }

  getAll(): Record<string, AnyActorRef> {
    return Object.fromEntries(this.#keyed?.entries() ?? []);
  }

  _set(systemId: string, actorRef: AnyActorRef): void {
    const keyed = (this.#keyed ??= new Map());
    const existing = keyed.get(systemId);
    if (existing && existing !== actorRef) throw new Error(`Actor with system ID '${systemId}' already exists.`);
    keyed.set(systemId, actorRef);
    (this.#reverseKeyed ??= new WeakMap()).set(actorRef, systemId);
  }

  inspect(observerOrFn: unknown) {
    const observer = toObserver(observerOrFn);
    const inspectors = (this.#inspectors ??= new Set());
    inspectors.add(observer);
    return { unsubscribe: () => inspectors.delete(observer) };
  }

  _sendInspectionEvent(event: Record<string, unknown>): void {
    if (!this.inspecting) return;
    const resolved = { ...event, rootId: this.root.sessionId };
    this.#inspectors!.forEach((observer) => observer.next?.(resolved));
  }

  _relay(source: AnyActorRef | undefined, target: AnyActorRef, event: AnyEventObject): void {
    if (this.inspecting)
      this._sendInspectionEvent({ type: '@xstate.event', sourceRef: source, actorRef: target, event });
    (target as unknown as { _send(event: AnyEventObject): void })._send(event);
  }

  getSnapshot() {
    return { _scheduledEvents: { ...this._snapshot._scheduledEvents } };
  }

  start(): void {
    const scheduledEvents = this._snapshot._scheduledEvents;
    let any = false;
    for (const _ in scheduledEvents) any = true;
    if (!any) return;
    this._snapshot._scheduledEvents = {};
    for (const key in scheduledEvents) {
      const { source, target, event, delay, id } = scheduledEvents[key]!;
      this.scheduler.schedule(source, target, event, delay, id);
    }
  }
}
