/**
 * Type-level checks on a machine config that XState's own types leave open: every transition
 * target names a sibling state (`'done'`), a child (`'.child'`) or an id (`'#id'`), every `on`
 * key is an event the machine can receive, and a question state (`meta: { 'baton.input': { key } }`)
 * names a declared question, carries the `baton.input` tag and handles that question's answers. A misspelling turns the config's type at that
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
/**
 * The targets a node's transitions may name, and the ones worth suggesting (ids are any string);
 * the guards and actions the setup implements by name (`string` where they are not checked).
 */
interface Targets extends Names {
  allowed: string;
  names: string;
}
/** The guard and action names a setup implements. */
export interface Names {
  guards: string;
  actions: string;
}
type TargetsOf<N, Siblings extends string, TNames extends Names> = {
  allowed: Siblings | `.${StatesOf<N>}` | `#${string}`;
  names: Siblings | `.${StatesOf<N>}`;
  guards: TNames['guards'];
  actions: TNames['actions'];
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

/** A named guard or action the setup does not implement, as a sentence (a literal name only). */
type NameError<Kind extends string, X extends string, TNames extends string> = [TNames] extends [never]
  ? `no ${Kind} '${X}': this setup names none`
  : `no ${Kind} '${X}': did you mean '${ClosestName<X, TNames>}'?`;
type CheckName<Kind extends string, X, TNames extends string> = X extends string
  ? string extends X
    ? X
    : X extends TNames
      ? X
      : NameError<Kind, X, TNames>
  : X extends { type: string }
    ? { [P in keyof X]: P extends 'type' ? CheckName<Kind, X[P], TNames> : X[P] }
    : X;
type CheckActions<A, T extends Targets> = A extends readonly unknown[]
  ? { [I in keyof A]: CheckName<'action', A[I], T['actions']> }
  : CheckName<'action', A, T['actions']>;

type CheckTransition<X, T extends Targets> = X extends string
  ? CheckTarget<X, T>
  : X extends readonly unknown[]
    ? { [I in keyof X]: CheckTransition<X[I], T> }
    : X extends object
      ? {
          [P in keyof X]: P extends 'target'
            ? CheckTarget<X[P], T>
            : P extends 'guard'
              ? CheckName<'guard', X[P], T['guards']>
              : P extends 'actions'
                ? CheckActions<X[P], T>
                : X[P];
        }
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

/** The tag that marks an input state, as a plain config must spell it (input-states.ts). */
type InputTag = 'baton.input';
type HasInputTag<N> = N extends { tags: infer Tags }
  ? InputTag extends (Tags extends readonly (infer Tag)[] ? Tag : Tags)
    ? true
    : false
  : false;
type HandledEvents<N> = N extends { on: infer O } ? keyof O & string : never;

/**
 * What is wrong with a question state asking `K`, as sentences (never when nothing is): it
 * needs the tag the engine finds input states by, and a transition for each answer.
 */
type QuestionStateError<N, K extends string, TAsk> =
  HasInputTag<N> extends false
    ? `the state asking '${K}' needs tags: ['${InputTag}']`
    : Exclude<TAsk[K & keyof TAsk] & string, HandledEvents<N>> extends infer Missing extends string
      ? [Missing] extends [never]
        ? never
        : `the state asking '${K}' does not handle '${Missing}'`
      : never;

/**
 * `meta['baton.input']` of a question state: `{ key }` names a question declared in
 * `toolSetup({ questions })`; every error is reported on the key, so `tsc` points at that line.
 * A question written out whole (kind, message, …: plain `setup()` machines, JSON) is the engine's
 * to check at start-up.
 */
type CheckQuestionRef<N, Q, TAsk> = Q extends { key: infer K extends string }
  ? Q extends { kind: string }
    ? Q
    : K extends keyof TAsk
      ? [QuestionStateError<N, K, TAsk>] extends [never]
        ? Q
        : { [P in keyof Q]: P extends 'key' ? QuestionStateError<N, K, TAsk> : Q[P] }
      : { [P in keyof Q]: P extends 'key' ? QuestionKeyError<K, keyof TAsk & string> : Q[P] }
  : Q;
type QuestionKeyError<
  K extends string,
  TKeys extends string,
> = `no question '${K}' is declared: did you mean '${ClosestName<K, TKeys>}'?`;

// The meta key is the tag's name (INPUT_META and INPUT_TAG, input-states.ts).
type CheckMeta<N, M, TAsk> = M extends { 'baton.input': infer Q }
  ? { [P in keyof M]: P extends InputTag ? CheckQuestionRef<N, Q, TAsk> : M[P] }
  : M;

type CheckConfigNode<N, T extends Targets, TEventType extends string, TAsk, TNames extends Names> = {
  [K in keyof N]: K extends 'on'
    ? CheckOn<N[K], T, TEventType>
    : K extends 'meta'
      ? CheckMeta<N, N[K], TAsk>
      : K extends 'entry' | 'exit'
        ? CheckActions<N[K], T>
        : K extends 'after'
          ? { [D in keyof N[K]]: CheckTransition<N[K][D], T> }
          : K extends 'always' | 'onDone'
            ? CheckTransition<N[K], T>
            : K extends 'invoke'
              ? CheckInvoke<N[K], T>
              : K extends 'states'
                ? { [S in keyof N[K]]: CheckNode<N[K][S], keyof N[K] & string, TEventType, TAsk, TNames> }
                : N[K];
};

/** `N` with each target and event key narrowed to what may stand there. */
type CheckNode<N, Siblings extends string, TEventType extends string, TAsk, TNames extends Names> =
  N extends AskedState<infer TTarget>
    ? CheckAsked<N, TTarget, TargetsOf<N, Siblings, TNames>>
    : CheckConfigNode<N, TargetsOf<N, Siblings, TNames>, TEventType, TAsk, TNames>;

/**
 * The parameter type of `createMachine` for a config inferred as `TConfig` (`TBase` is XState's
 * own config type, `TConfig`'s constraint; `TAsk` maps each declared question's key to the answer
 * events its state must handle):
 *
 * - a conditional rather than `TConfig & CheckNode<TConfig>`: a literal target intersected with
 *   its error sentence is `never`, and the sentence would be lost from the message;
 * - not distributive (`[TConfig]`), so the argument stays a const context and targets are
 *   inferred as literals;
 * - when inference fell back to `TBase` (XState's types refused the literal, e.g. an `on` object
 *   whose only key is misspelled), the config is checked against XState's types, whose error
 *   names the key.
 */
export type CheckedConfig<
  TConfig,
  TBase,
  TEventType extends string,
  TAsk = Record<never, never>,
  TNames extends Names = Names,
> = TBase extends TConfig
  ? TConfig
  : [TConfig] extends [CheckNode<TConfig, never, TEventType, TAsk, TNames>]
    ? TConfig
    : NoInfer<CheckNode<TConfig, never, TEventType, TAsk, TNames>>;
