/**
 * What kind of XState actor logic a child runs. XState gives actor logic no kind field, but every
 * logic made by one of its creators shares that creator's `transition` function text, so comparing
 * the text tells a promise (which finishes by itself) from a callback or observable (which run
 * until stopped). Logic from another copy of xstate, or written by hand, is `other`.
 */
import { fromCallback, fromEventObservable, fromObservable, fromPromise, fromTransition } from 'xstate';

export type ActorKind = 'machine' | 'promise' | 'callback' | 'observable' | 'transition' | 'other';

const noop = () => undefined;
const KINDS: Array<[string, ActorKind]> = [
  [String(fromPromise(async () => undefined).transition), 'promise'],
  [String(fromCallback(noop).transition), 'callback'],
  [String(fromObservable(noop as never).transition), 'observable'],
  [String(fromEventObservable(noop as never).transition), 'observable'],
  [String(fromTransition(noop as never, undefined).transition), 'transition'],
];

export function actorKind(logic: unknown): ActorKind {
  if (typeof logic !== 'object' || logic === null) return 'other';
  // A StateMachine carries its state tree.
  if ('root' in logic && typeof (logic as { transition?: unknown }).transition === 'function') return 'machine';
  const transition = (logic as { transition?: unknown }).transition;
  if (typeof transition !== 'function') return 'other';
  const text = String(transition);
  return KINDS.find(([known]) => known === text)?.[1] ?? 'other';
}

/** Logic that keeps running until it is stopped, so it can never be idle at a question. */
export function runsUntilStopped(kind: ActorKind): boolean {
  return kind === 'callback' || kind === 'observable' || kind === 'other';
}
