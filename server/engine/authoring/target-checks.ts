/**
 * Type-level checks on a machine config that XState's own types leave open: every transition
 * target names a sibling state (`'done'`), a child (`'.child'`) or an id (`'#id'`), and every
 * `on` key is an event the machine can receive. A misspelling turns the config's type at that
 * spot into what was allowed, so `tsc` points at it. Only literal configs are checked; anything
 * XState accepts at run time still passes here when it cannot be read as a literal.
 */
type StatesOf<N> = N extends { states: infer S } ? keyof S & string : never;
type Allowed<N, Siblings extends string> = Siblings | `.${StatesOf<N>}` | `#${string}`;

type CheckTarget<X, A> = X extends string
  ? X extends A
    ? X
    : A
  : X extends readonly unknown[]
    ? { [I in keyof X]: CheckTarget<X[I], A> }
    : X;

type CheckTransition<T, A> = T extends string
  ? CheckTarget<T, A>
  : T extends readonly unknown[]
    ? { [I in keyof T]: CheckTransition<T[I], A> }
    : T extends { target: infer X }
      ? { [P in keyof T]: P extends 'target' ? CheckTarget<X, A> : T[P] }
      : T;

type CheckOn<O, A, TEventType extends string> = {
  [K in keyof O]: K extends TEventType | '*' | `${string}.*` ? CheckTransition<O[K], A> : never;
};

type CheckInvoke<I, A> = I extends readonly unknown[]
  ? { [X in keyof I]: CheckInvoke<I[X], A> }
  : { [P in keyof I]: P extends 'onDone' | 'onError' | 'onSnapshot' ? CheckTransition<I[P], A> : I[P] };

/** `N` with each target and event key narrowed to what may stand there. */
export type CheckNode<N, Siblings extends string, TEventType extends string> = {
  [K in keyof N]: K extends 'on'
    ? CheckOn<N[K], Allowed<N, Siblings>, TEventType>
    : K extends 'after'
      ? { [D in keyof N[K]]: CheckTransition<N[K][D], Allowed<N, Siblings>> }
      : K extends 'always' | 'onDone'
        ? CheckTransition<N[K], Allowed<N, Siblings>>
        : K extends 'invoke'
          ? CheckInvoke<N[K], Allowed<N, Siblings>>
          : K extends 'states'
            ? { [S in keyof N[K]]: CheckNode<N[K][S], keyof N[K] & string, TEventType> }
            : N[K];
};
