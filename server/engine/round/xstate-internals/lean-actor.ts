/**
 * XState's `Actor`, trimmed for a root machine actor in one round (see index.ts for what it leaves
 * out and what guards it).
 */
import type { AnyActorRef, AnyEventObject, AnyStateMachine } from 'xstate';
import {
  ACTOR_TYPE,
  defaultClock,
  defaultLogger,
  isEmpty,
  NOT_STARTED,
  reportUnhandledError,
  RUNNING,
  STOPPED,
  toObserver,
  XSTATE_INIT,
  XSTATE_STOP,
  type ExecutableAction,
  type Fn,
  type Observer,
  type Persisted,
  type Snapshot,
} from './actor-contract.js';
import { LeanSystem } from './lean-system.js';
import { persist, restoreWithoutChildren } from './lean-snapshots.js';

export interface LeanActorOptions {
  /** A persisted snapshot to continue from; the machine starts afresh without one. */
  snapshot?: unknown;
  input?: unknown;
}

/**
 * XState's `Actor`, for a root machine actor in one round. Each method says which of `Actor`'s it
 * is; where it differs, the comment says how and why.
 */
export class LeanActor {
  readonly logic: AnyStateMachine;
  readonly src: AnyStateMachine;
  readonly system: LeanSystem;
  readonly sessionId: string;
  readonly id: string;
  readonly ref = this;
  readonly options: { input?: unknown };
  readonly logger = defaultLogger;
  readonly clock = defaultClock;
  readonly _parent = undefined;
  readonly _syncSnapshot = undefined;
  readonly systemId = undefined;
  _processingStatus = NOT_STARTED;
  _snapshot: Snapshot;
  readonly _actorScope: {
    self: LeanActor;
    id: string;
    sessionId: string;
    logger: Fn;
    defer: (fn: () => void) => void;
    system: LeanSystem;
    stopChild: (child: AnyActorRef) => void;
    emit: (event: AnyEventObject) => void;
    actionExecutor: (action: ExecutableAction) => void;
  };
  /** The mailbox: events waiting, whether it runs them (after start), and whether it is running one. */
  #queue: AnyEventObject[] = [];
  #mailboxActive = false;
  #processing = false;
  #deferred: Array<() => void> = [];
  #observers: Set<Observer> | undefined;
  #listeners: Map<string, Set<Fn>> | undefined;

  constructor(machine: AnyStateMachine, options: LeanActorOptions) {
    this.logic = machine;
    this.src = machine;
    this.options = { input: options.input };
    this.system = new LeanSystem(this);
    this.sessionId = this.system._bookId();
    this.id = this.sessionId;
    this._actorScope = {
      self: this,
      id: this.id,
      sessionId: this.sessionId,
      logger: this.logger,
      defer: (fn) => {
        this.#deferred.push(fn);
      },
      system: this.system,
      stopChild: (child) => {
        if ((child as unknown as { _parent: unknown })._parent !== this) {
          throw new Error(`Cannot stop child actor ${child.id} of ${this.id} because it is not a child`);
        }
        (child as unknown as { _stop(): void })._stop();
      },
      emit: (event) => this.#emit(event),
      actionExecutor: (action) => this.#execute(action),
    };
    this.send = this.send.bind(this);
    if (this.system.inspecting) this.system._sendInspectionEvent({ type: '@xstate.actor', actorRef: this });
    this._snapshot = this.#initState(options);
  }

  #initState(options: LeanActorOptions): Snapshot {
    try {
      return options.snapshot === undefined
        ? (this.logic.getInitialSnapshot(this._actorScope as never, options.input) as Snapshot)
        : restoreWithoutChildren(this.logic, options.snapshot as Persisted, this._actorScope);
    } catch (error) {
      return { status: 'error', output: undefined, error } as unknown as Snapshot;
    }
  }

  /** Actor's action executor: an action runs at once while running, else when the actor starts. */
  #execute(action: ExecutableAction): void {
    if (this._processingStatus === RUNNING) this.#run(action);
    else this.#deferred.push(() => this.#run(action));
  }

  #run(action: ExecutableAction): void {
    if (this.system.inspecting) {
      this.system._sendInspectionEvent({
        type: '@xstate.action',
        actorRef: this,
        action: { type: action.type, params: action.params },
      });
    }
    // Actor also raises a flag here that only XState's development build reads, to warn when a
    // custom action calls raise(); that warning is not given on this path.
    action.exec?.(action.info, action.params);
  }

  #emit(event: AnyEventObject): void {
    const listeners = this.#listeners?.get(event.type);
    const wildcard = this.#listeners?.get('*');
    if (!listeners && !wildcard) return;
    for (const handler of [...(listeners ?? []), ...(wildcard ?? [])]) {
      try {
        handler(event);
      } catch (error) {
        reportUnhandledError(error);
      }
    }
  }

  /** Actor#update: the new snapshot, the deferred effects, then the observers. */
  #update(snapshot: Snapshot): void {
    this._snapshot = snapshot;
    let deferred: (() => void) | undefined;
    while ((deferred = this.#deferred.shift())) {
      try {
        deferred();
      } catch (error) {
        this.#deferred.length = 0;
        this._snapshot = { ...snapshot, status: 'error', error } as Snapshot;
      }
    }
    switch (this._snapshot.status) {
      case 'active':
        this.#notify(snapshot);
        break;
      case 'done':
        this.#notify(snapshot);
        this.#stopProcedure();
        this.#complete();
        break;
      case 'error':
        this.#error(this._snapshot.error);
        break;
    }
    if (this.system.inspecting) {
      this.system._sendInspectionEvent({ type: '@xstate.snapshot', actorRef: this, snapshot });
    }
  }

  #notify(snapshot: Snapshot): void {
    if (!this.#observers) return;
    for (const observer of this.#observers) {
      try {
        observer.next?.(snapshot);
      } catch (error) {
        reportUnhandledError(error);
      }
    }
  }

  subscribe(next: unknown, error?: Fn, complete?: Fn): { unsubscribe(): void } {
    const observer = toObserver(next, error, complete);
    if (this._processingStatus !== STOPPED) (this.#observers ??= new Set()).add(observer);
    else if (this._snapshot.status === 'done') {
      try {
        observer.complete?.();
      } catch (err) {
        reportUnhandledError(err);
      }
    } else if (this._snapshot.status === 'error') {
      const err = this._snapshot.error;
      if (!observer.error) reportUnhandledError(err);
      else {
        try {
          observer.error(err);
        } catch (err2) {
          reportUnhandledError(err2);
        }
      }
    }
    return { unsubscribe: () => void this.#observers?.delete(observer) };
  }

  on(type: string, handler: Fn): { unsubscribe(): void } {
    const listeners = (this.#listeners ??= new Map());
    let set = listeners.get(type);
    if (!set) listeners.set(type, (set = new Set()));
    const wrapped = handler.bind(undefined);
    set.add(wrapped);
    return { unsubscribe: () => void set.delete(wrapped) };
  }

  start(): this {
    if (this._processingStatus === RUNNING) return this;
    this.system._register(this.sessionId, this as unknown as AnyActorRef);
    this._processingStatus = RUNNING;
    const initEvent = { type: XSTATE_INIT, input: this.options.input };
    if (this.system.inspecting) {
      this.system._sendInspectionEvent({
        type: '@xstate.event',
        sourceRef: undefined,
        actorRef: this,
        event: initEvent,
      });
    }
    switch (this._snapshot.status) {
      case 'done':
        this.#update(this._snapshot);
        return this;
      case 'error':
        this.#error(this._snapshot.error);
        return this;
    }
    this.system.start();
    try {
      (this.logic.start as Fn)(this._snapshot, this._actorScope);
    } catch (error) {
      this._snapshot = { ...this._snapshot, status: 'error', error } as Snapshot;
      this.#error(error);
      return this;
    }
    this.#update(this._snapshot);
    this.#mailboxActive = true;
    this.#flush();
    return this;
  }

  #flush(): void {
    if (this.#processing) return;
    this.#processing = true;
    try {
      let event: AnyEventObject | undefined;
      while (this.#mailboxActive && (event = this.#queue.shift())) this.#process(event);
    } finally {
      this.#processing = false;
    }
  }

  /** Actor#_process: one event through the machine; a throw (an action, a guard) fails the actor. */
  #process(event: AnyEventObject): void {
    let next: Snapshot;
    if (event.type === XSTATE_STOP && isEmpty(this._snapshot.children) && !this.system.inspecting) {
      // The stop macrostep only stops children: with none, it is this copy with the status changed.
      next = { ...this._snapshot, status: 'stopped' } as Snapshot;
    } else {
      try {
        next = this.logic.transition(this._snapshot, event, this._actorScope as never) as Snapshot;
      } catch (error) {
        this._snapshot = { ...this._snapshot, status: 'error', error } as Snapshot;
        this.#error(error);
        return;
      }
    }
    this.#update(next);
    if (event.type === XSTATE_STOP) {
      this.#stopProcedure();
      this.#complete();
    }
  }

  _stop(): this {
    if (this._processingStatus === STOPPED) return this;
    // Mailbox#clear keeps only the event being processed (or, before start, the first waiting).
    if (!this.#processing && this.#queue.length > 1) this.#queue.length = 1;
    else if (this.#processing) this.#queue.length = 0;
    if (this._processingStatus === NOT_STARTED) {
      this._processingStatus = STOPPED;
      return this;
    }
    this._send({ type: XSTATE_STOP });
    return this;
  }

  stop(): this {
    return this._stop();
  }

  #complete(): void {
    if (this.#observers) {
      for (const observer of this.#observers) {
        try {
          observer.complete?.();
        } catch (error) {
          reportUnhandledError(error);
        }
      }
      this.#observers.clear();
    }
    this.#listeners?.clear();
  }

  #reportError(error: unknown): void {
    if (!this.#observers?.size) {
      reportUnhandledError(error);
      this.#listeners?.clear();
      return;
    }
    let report = false;
    for (const observer of this.#observers) {
      const listener = observer.error;
      report ||= !listener;
      try {
        listener?.(error);
      } catch (err2) {
        reportUnhandledError(err2);
      }
    }
    this.#observers.clear();
    this.#listeners?.clear();
    if (report) reportUnhandledError(error);
  }

  #error(error: unknown): void {
    this.#stopProcedure();
    this.#reportError(error);
  }

  #stopProcedure(): void {
    if (this._processingStatus !== RUNNING) return;
    if (!isEmpty(this.system._snapshot._scheduledEvents)) this.system.scheduler.cancelAll(this as never);
    this.#queue.length = 0;
    this.#mailboxActive = false;
    this._processingStatus = STOPPED;
    this.system._unregister(this as unknown as AnyActorRef);
  }

  _send(event: AnyEventObject): void {
    if (this._processingStatus === STOPPED) return;
    this.#queue.push(event);
    if (this.#mailboxActive) this.#flush();
  }

  send(event: AnyEventObject): void {
    this.system._relay(undefined, this as unknown as AnyActorRef, event);
  }

  toJSON() {
    return { xstate$$type: ACTOR_TYPE, id: this.id };
  }

  getPersistedSnapshot(options?: unknown): Persisted {
    return persist(this.logic, this._snapshot, options);
  }

  getSnapshot(): Snapshot {
    return this._snapshot;
  }
}
