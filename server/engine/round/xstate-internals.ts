/**
 * The one door to XState's internals, and the only file that opens it. A round on the hot path
 * runs its machine in a `LeanActor`: a trimmed copy of XState's `Actor` and actor system
 * (xstate 5.33, `Actor` and `createSystem` in `dist/raise-*.js`) that drives the machine through
 * the same `StateMachine` functions an `Actor` calls (`getInitialSnapshot`, `transition`, `start`),
 * so every transition, action, guard, `emit` and error runs in XState's own code, in the same
 * order. What it leaves out is what a round never uses: the inspection events nobody listens to,
 * the mailbox's linked list and bound functions, the actor system's maps until a child needs them,
 * and a whole macrostep to stop an actor that has no children. It also restores and persists a
 * snapshot without children itself (the state tree of a state value is computed once per value),
 * byte for byte as XState does.
 *
 * What it relies on that XState does not document: the actor-scope and system contract those
 * functions call back into (`defer`, `actionExecutor`, `system._relay`, `_bookId`, `_register`, the
 * scheduler), the fields a child actor reads on its parent (`_send`, `_parent`, `_processingStatus`),
 * the shape and key order of a machine snapshot (`_nodes`) and of a persisted one. So it is used
 * only with the XState versions it was tested with, only after a probe at start-up has run the same
 * machine both ways and found the same snapshots (lean-path-check.ts), and only for machines without
 * invoked actors or delays (`leanEligible`); anything else takes the public path, `createActor`.
 */
import {
  StateMachine,
  StateNode,
  type AnyActorRef,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
} from 'xstate';

/** XState's `ProcessingStatus`: child actors read their parent's. */
const NOT_STARTED = 0;
const RUNNING = 1;
const STOPPED = 2;
const XSTATE_STOP = 'xstate.stop';
const XSTATE_INIT = 'xstate.init';
/** How XState marks an actor reference in a persisted context. */
const ACTOR_TYPE = 1;
/** Distinct state values remembered per machine; a parallel machine may have many. */
const MAX_CACHED_STATES = 512;

type Snapshot = AnyMachineSnapshot & { _nodes: StateNode[] };
type Persisted = Record<string, unknown>;
type Fn = (...args: any[]) => any;

interface Observer {
  next?: Fn | undefined;
  error?: Fn | undefined;
  complete?: Fn | undefined;
}

interface ExecutableAction {
  type: string;
  info: unknown;
  params: unknown;
  exec: ((info: unknown, params: unknown) => void) | undefined;
}

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

/** XState's `reportUnhandledError`: an error nobody observes is thrown from a timer. */
function reportUnhandledError(error: unknown): void {
  setTimeout(() => {
    throw error;
  });
}

function toObserver(next: unknown, error?: Fn, complete?: Fn): Observer {
  const isObserver = typeof next === 'object' && next !== null;
  const self = isObserver ? next : undefined;
  const o = next as Observer;
  return {
    next: (isObserver ? o.next : (next as Fn | undefined))?.bind(self),
    error: (isObserver ? o.error : error)?.bind(self),
    complete: (isObserver ? o.complete : complete)?.bind(self),
  };
}

const defaultClock = {
  setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
  clearTimeout: (id: unknown) => clearTimeout(id as NodeJS.Timeout),
};
const defaultLogger = console.log.bind(console);
let sessionCount = 0;

/** XState's actor system (`createSystem`) for one lean root actor: its maps are made when first used. */
class LeanSystem {
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

/** The state nodes, value and tags of one state value of a machine, as XState's restore computes them. */
interface StateEntry {
  nodes: StateNode[];
  value: unknown;
  tags: string[];
  methods: Pick<AnyMachineSnapshot, 'matches' | 'hasTag' | 'can' | 'getMeta' | 'toJSON'>;
}

const stateEntries = new WeakMap<AnyStateMachine, Map<string, StateEntry>>();

function stateEntryOf(machine: AnyStateMachine, value: unknown, scope: object): StateEntry {
  let entries = stateEntries.get(machine);
  if (!entries) stateEntries.set(machine, (entries = new Map()));
  const key = typeof value === 'string' ? value : JSON.stringify(value);
  let entry = entries.get(key);
  if (!entry) {
    // XState's own restore, of this value alone: it throws as a restore would for a state that does not exist.
    const bare = { status: 'active', value, context: {}, children: {}, historyValue: {} };
    const snapshot = machine.restoreSnapshot(bare as never, scope as never) as Snapshot;
    const { matches, hasTag, can, getMeta, toJSON } = snapshot;
    entry = {
      nodes: snapshot._nodes,
      value: snapshot.value,
      tags: [...snapshot.tags],
      methods: { matches, hasTag, can, getMeta, toJSON },
    };
    if (entries.size < MAX_CACHED_STATES) entries.set(key, entry);
  }
  return entry;
}

/** A fresh copy of a state value (XState computes a new one on every restore). */
function copyValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = copyValue((value as Record<string, unknown>)[key]);
  return copy;
}

/** StateMachine#restoreSnapshot for a snapshot without children, with the state tree from the cache. */
function restoreWithoutChildren(machine: AnyStateMachine, persisted: Persisted, scope: object): Snapshot {
  if (!isEmpty(persisted.children as object))
    return machine.restoreSnapshot(persisted as never, scope as never) as Snapshot;
  const historyValue = reviveHistoryValue(machine, persisted.historyValue);
  const entry = stateEntryOf(machine, persisted.value, scope);
  const { methods } = entry;
  // One literal with XState's keys in XState's order (createMachineSnapshot), no spread: V8 then
  // gives it the same hidden class as the snapshots XState makes, so XState's functions see one
  // shape of snapshot, not two (with the methods spread in, they did).
  const snapshot = {
    status: persisted.status,
    output: persisted.output,
    error: persisted.error,
    machine,
    context: persisted.context,
    _nodes: entry.nodes,
    value: copyValue(entry.value),
    tags: new Set(entry.tags),
    children: {},
    historyValue,
    matches: methods.matches,
    hasTag: methods.hasTag,
    can: methods.can,
    getMeta: methods.getMeta,
    toJSON: methods.toJSON,
  } as unknown as Snapshot;
  reviveContext(snapshot.context, undefined);
  return snapshot;
}

function reviveHistoryValue(machine: AnyStateMachine, historyValue: unknown): Record<string, StateNode[]> {
  if (!historyValue || typeof historyValue !== 'object') return {};
  const revived: Record<string, StateNode[]> = {};
  for (const key in historyValue) {
    for (const item of (historyValue as Record<string, Array<{ id: string }>>)[key]!) {
      let resolved: StateNode | undefined;
      if (item instanceof StateNode) resolved = item;
      else {
        try {
          resolved = machine.getStateNodeById(item.id);
        } catch {
          // A state that no longer exists is left out, as XState does.
        }
      }
      if (!resolved) continue;
      (revived[key] ??= []).push(resolved);
    }
  }
  return revived;
}

/**
 * References to children in a persisted context come back as the children (none here: undefined).
 * The objects already visited (superjson may restore shared and cyclic references) are kept from
 * the first nested object on: most contexts hold none.
 */
function reviveContext(part: unknown, seen: Set<unknown> | undefined): void {
  for (const key in part as object) {
    const value = (part as Record<string, unknown>)[key];
    if (value && typeof value === 'object') {
      if ('xstate$$type' in value && value.xstate$$type === ACTOR_TYPE) {
        (part as Record<string, unknown>)[key] = undefined;
        continue;
      }
      seen ??= new Set([part]);
      if (seen.has(value)) continue;
      seen.add(value);
      reviveContext(value, seen);
    }
  }
}

/** machine.getPersistedSnapshot, same keys in the same order, for a machine snapshot without children. */
function persist(machine: AnyStateMachine, snapshot: Snapshot, options: unknown): Persisted {
  if (!snapshot._nodes || !isEmpty(snapshot.children))
    return machine.getPersistedSnapshot(snapshot, options) as Persisted;
  return {
    status: snapshot.status,
    output: snapshot.output,
    error: snapshot.error,
    value: snapshot.value,
    historyValue: serializeHistoryValue(snapshot.historyValue),
    context: persistContext(snapshot.context),
    children: {},
  };
}

function serializeHistoryValue(historyValue: unknown): Record<string, Array<{ id: string }>> {
  if (typeof historyValue !== 'object' || historyValue === null) return {};
  const result: Record<string, Array<{ id: string }>> = {};
  for (const key in historyValue) {
    const value = (historyValue as Record<string, unknown>)[key];
    if (Array.isArray(value)) result[key] = value.map((item: { id: string }) => ({ id: item.id }));
  }
  return result;
}

/** An actor reference in context becomes `{ xstate$$type, id }`; the context is copied only where one is. */
function persistContext(part: any): any {
  let copy: any;
  for (const key in part) {
    const value = part[key];
    if (value && typeof value === 'object') {
      if ('sessionId' in value && 'send' in value && 'ref' in value) {
        copy ??= Array.isArray(part) ? part.slice() : { ...part };
        copy[key] = { xstate$$type: ACTOR_TYPE, id: value.id };
      } else {
        const result = persistContext(value);
        if (result !== value) {
          copy ??= Array.isArray(part) ? part.slice() : { ...part };
          copy[key] = result;
        }
      }
    }
  }
  return copy ?? part;
}

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

function isEmpty(record: object | undefined): boolean {
  for (const _ in record) return false;
  return true;
}

/** XState's built-in action types that start a child or a timer (a delayed raise or sendTo). */
function startsWork(action: unknown, machine: AnyStateMachine): boolean {
  const named = typeof action === 'string' ? action : (action as { type?: unknown } | null)?.type;
  const resolved =
    typeof action === 'function'
      ? action
      : typeof named === 'string'
        ? (machine.implementations.actions as Record<string, unknown>)[named]
        : undefined;
  if (typeof resolved !== 'function') return false;
  const builtin = resolved as { type?: unknown; delay?: unknown };
  if (builtin.type === 'xstate.spawnChild') return true;
  return (builtin.type === 'xstate.raise' || builtin.type === 'xstate.sendTo') && builtin.delay !== undefined;
}

function nodeStartsWork(node: StateNode, machine: AnyStateMachine): boolean {
  if (node.invoke.length > 0 || node.after.length > 0) return true;
  const actions: unknown[] = [...node.entry, ...node.exit];
  if (node.type === 'compound') actions.push(...node.initial.actions);
  for (const transition of node.always ?? []) actions.push(...transition.actions);
  for (const transitions of node.transitions.values()) for (const t of transitions) actions.push(...t.actions);
  if (actions.some((action) => startsWork(action, machine))) return true;
  return Object.values(node.states).some((child) => nodeStartsWork(child as StateNode, machine));
}

const eligibility = new WeakMap<AnyStateMachine, boolean>();

/**
 * Whether a machine may run in a LeanActor: one made by the XState this file was tested with, whose
 * states invoke nothing and have no `after`, and whose actions, as written, spawn no child and
 * schedule no delayed event. (An action that does so only at run time, in `enqueueActions` or through
 * `spawn` in `assign`, still runs correctly: LeanSystem keeps children and timers as XState does.)
 */
export function leanEligible(machine: AnyStateMachine): boolean {
  let eligible = eligibility.get(machine);
  if (eligible === undefined) {
    eligible = machine instanceof StateMachine && !nodeStartsWork(machine.root as StateNode, machine);
    eligibility.set(machine, eligible);
  }
  return eligible;
}
