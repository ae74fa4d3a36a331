/**
 * Type-level checks on a machine config that XState's own types leave open: every transition
 * target names a sibling state (`'done'`), a child (`'.child'`) or an id (`'#id'`), and every
 * `on` key is an event the machine can receive. A misspelling turns the config's type at that
 * spot into a sentence naming it and the nearest valid name (closest-name.ts), so `tsc` points at
 * the line and its first words say what to write instead:
 *
 *   Type '"filde"' is not assignable to type '"no state 'filde' here: did you mean 'filed'?"'.
 *
 * Only literal configs are checked; anything XState accepts at run time still passes here when it
 * cannot be read as a literal.
 */
import type { AskedState } from './ask-builders.js';
import type { ClosestName } from './closest-name.js';

type StatesOf<N> = N extends { states: infer S } ? keyof S & string : never;
/** The targets a node's transitions may name, and the ones worth suggesting (ids are any string). */
interface Targets {
  allowed: string;
  names: string;
}
type TargetsOf<N, Siblings extends string> = {
  allowed: Siblings | `.${StatesOf<N>}` | `#${string}`;
  names: Siblings | `.${StatesOf<N>}`;
};

/** One sentence per bad target (an `ask` state can hold several). */
type TargetError<X extends string, T extends Targets> = X extends string
  ? `no state '${X}' here: did you mean '${ClosestName<X, T['names']>}'?`
  : never;
type EventError<
  K extends string,
  TEventType extends string,
> = `no event '${K}' reaches this machine: did you mean '${ClosestName<K, TEventType>}'?`;

// A target inferred as plain `string` (a ternary's branch can lose its literal) cannot be read,
// so it passes, as the header says; only a literal is judged.
type CheckTarget<X, T extends Targets> = X extends string
  ? string extends X
    ? X
    : X extends T['allowed']
      ? X
      : TargetError<X, T>
  : X extends readonly unknown[]
    ? { [I in keyof X]: CheckTarget<X[I], T> }
    : X;

type CheckTransition<X, T extends Targets> = X extends string
  ? CheckTarget<X, T>
  : X extends readonly unknown[]
    ? { [I in keyof X]: CheckTransition<X[I], T> }
    : X extends { target: infer Target }
      ? { [P in keyof X]: P extends 'target' ? CheckTarget<Target, T> : X[P] }
      : X;

type CheckOn<O, T extends Targets, TEventType extends string> = {
  [K in keyof O]: K extends TEventType | '*' | `${string}.*`
    ? CheckTransition<O[K], T>
    : EventError<K & string, TEventType>;
};

type CheckInvoke<I, T extends Targets> = I extends readonly unknown[]
  ? { [X in keyof I]: CheckInvoke<I[X], T> }
  : { [P in keyof I]: P extends 'onDone' | 'onError' | 'onSnapshot' ? CheckTransition<I[P], T> : I[P] };

/**
 * A state built by `ask.<key>(…)` is checked as a whole: its handlers' targets are already
 * literal in its type, and the error is reported on the state's line (the builder's call is not
 * a literal the checker can point inside).
 */
type CheckAsked<N, TTarget extends string, T extends Targets> = [Exclude<TTarget, T['allowed']>] extends [never]
  ? N
  : TargetError<Exclude<TTarget, T['allowed']>, T>;

type CheckConfigNode<N, T extends Targets, TEventType extends string> = {
  [K in keyof N]: K extends 'on'
    ? CheckOn<N[K], T, TEventType>
    : K extends 'after'
      ? { [D in keyof N[K]]: CheckTransition<N[K][D], T> }
      : K extends 'always' | 'onDone'
        ? CheckTransition<N[K], T>
        : K extends 'invoke'
          ? CheckInvoke<N[K], T>
          : K extends 'states'
            ? { [S in keyof N[K]]: CheckNode<N[K][S], keyof N[K] & string, TEventType> }
            : N[K];
};

/** `N` with each target and event key narrowed to what may stand there. */
type CheckNode<N, Siblings extends string, TEventType extends string> =
  N extends AskedState<infer TTarget>
    ? CheckAsked<N, TTarget, TargetsOf<N, Siblings>>
    : CheckConfigNode<N, TargetsOf<N, Siblings>, TEventType>;

/**
 * The parameter type of `createMachine` for a config inferred as `TConfig` (`TBase` is XState's
 * own config type, `TConfig`'s constraint):
 *
 * - a conditional rather than `TConfig & CheckNode<TConfig>`: a literal target intersected with
 *   its error sentence is `never`, and the sentence would be lost from the message;
 * - not distributive (`[TConfig]`), so the argument stays a const context and targets are
 *   inferred as literals;
 * - when inference fell back to `TBase` (XState's types refused the literal, e.g. an `on` object
 *   whose only key is misspelled), the config is checked against XState's types, whose error
 *   names the key.
 */
export type CheckedConfig<TConfig, TBase, TEventType extends string> = TBase extends TConfig
  ? TConfig
  : [TConfig] extends [CheckNode<TConfig, never, TEventType>]
    ? TConfig
    : NoInfer<CheckNode<TConfig, never, TEventType>>;
