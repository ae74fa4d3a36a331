/**
 * The parts of XState's actor contract the lean actor and its system share: XState's processing
 * states and event types, the snapshot shapes it relies on, and the small helpers XState's `Actor`
 * uses (observers, unhandled errors, the default clock and logger). See index.ts for why they are
 * copied and what guards them.
 */
import type { AnyMachineSnapshot, StateNode } from 'xstate';

/** XState's `ProcessingStatus`: child actors read their parent's. */
export const NOT_STARTED = 0;
export const RUNNING = 1;
export const STOPPED = 2;
export const XSTATE_STOP = 'xstate.stop';
export const XSTATE_INIT = 'xstate.init';
/** How XState marks an actor reference in a persisted context. */
export const ACTOR_TYPE = 1;

export type Snapshot = AnyMachineSnapshot & { _nodes: StateNode[] };
export type Persisted = Record<string, unknown>;
export type Fn = (...args: any[]) => any;

export interface Observer {
  next?: Fn | undefined;
  error?: Fn | undefined;
  complete?: Fn | undefined;
}

export interface ExecutableAction {
  type: string;
  info: unknown;
  params: unknown;
  exec: ((info: unknown, params: unknown) => void) | undefined;
}

/** XState's `reportUnhandledError`: an error nobody observes is thrown from a timer. */
export function reportUnhandledError(error: unknown): void {
  setTimeout(() => {
    throw error;
  });
}

export function toObserver(next: unknown, error?: Fn, complete?: Fn): Observer {
  const isObserver = typeof next === 'object' && next !== null;
  const self = isObserver ? next : undefined;
  const o = next as Observer;
  return {
    next: (isObserver ? o.next : (next as Fn | undefined))?.bind(self),
    error: (isObserver ? o.error : error)?.bind(self),
    complete: (isObserver ? o.complete : complete)?.bind(self),
  };
}

export const defaultClock = {
  setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
  clearTimeout: (id: unknown) => clearTimeout(id as NodeJS.Timeout),
};
export const defaultLogger = console.log.bind(console);

/** Whether a record (children, scheduled events) has no own or inherited keys. */
export function isEmpty(record: object | undefined): boolean {
  for (const _ in record) return false;
  return true;
}
