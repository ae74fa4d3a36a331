/**
 * `ask.<key>(…)` of `toolSetup`: one builder per declared question, whose handlers are typed by
 * the machine's own setup (the answer event of that key, the context, the named actions and
 * guards), and whose targets stay literal so `createMachine` can check them (target-checks.ts).
 */
import { askForm, askRoots, askSampling, askUrl } from './input-states.js';
import type { QuestionSpec } from './question-specs.js';
import type { Names } from './target-checks.js';
import { questionOf } from './question-states.js';

/** Any XState setup: what the types below read a machine config's shape from. */
export interface MachineSetup {
  createMachine: (config: any) => any;
}
export type ConfigOf<S extends MachineSetup> = Parameters<S['createMachine']>[0];
type OnOf<S extends MachineSetup> = NonNullable<ConfigOf<S>['on']>;
/** One transition config for event `E`, as the setup types it. */
type Single<S extends MachineSetup, E extends string> = Exclude<
  Extract<NonNullable<OnOf<S>[E & keyof OnOf<S>]>, object>,
  readonly unknown[]
>;

/**
 * Guards and actions named in a handler are ones the setup implements: XState's own types let any
 * name through for `toolSetup` (tool-setup.ts), so a builder's handlers hold names to the setup
 * here, as `createMachine` does for plain states.
 */
interface Named<TNames extends Names> {
  guard?: TNames['guards'] | object;
  actions?: TNames['actions'] | object | ReadonlyArray<TNames['actions'] | object>;
}
type Transition<TSingle, TTarget extends string, TNames extends Names> = TSingle & { target?: TTarget } & Named<TNames>;

/** Where an answer goes: a target, a transition, or guarded transitions (first match wins). */
type Handler<TSingle, TTarget extends string, TNames extends Names> =
  TTarget | Transition<TSingle, TTarget, TNames> | ReadonlyArray<Transition<TSingle, TTarget, TNames>>;

interface AskOptions {
  /** The answer commits an effect: this state's sealed state is accepted once only. */
  singleUse?: boolean;
}

/**
 * What `ask.<key>` returns, as far as the machine's types see it: the answer events it handles
 * and the targets they go to (checked by `createMachine`, target-checks.ts). At run time it is
 * the full state node. Interfaces named by the question's key, so a compile error about one
 * stays short.
 */
export interface AskedState<TTarget extends string = string> {
  tags: string[];
  meta: Record<string, unknown>;
  on: Record<string, TTarget>;
}
/** A form or URL question's state. */
export interface InputState<TKey extends string, TTarget extends string> extends AskedState<TTarget> {
  on: { [E in `answer.${TKey}.${'accept' | 'decline' | 'cancel'}`]: TTarget };
}
/** A sampling or roots request's state. */
export interface ResultState<TKey extends string, TTarget extends string> extends AskedState<TTarget> {
  on: { [E in `answer.${TKey}.result`]: TTarget };
}

/**
 * The targets in the returned state come from the handlers only (`NoInfer`): inferred from where
 * the state is placed in a config, they would widen to `string` and no misspelling would show.
 */
export type AskFor<S extends MachineSetup, K extends string, Q, TNames extends Names = Names> = Q extends {
  kind: 'form' | 'url';
}
  ? <const TA extends string = never, const TD extends string = never, const TC extends string = never>(
      handlers: AskOptions & {
        onAccept: Handler<Single<S, `answer.${K}.accept`>, TA, TNames>;
        /** Declining is an ordinary outcome: say where it goes. */
        onDecline: Handler<Single<S, `answer.${K}.decline`>, TD, TNames>;
        /** Defaults to `onDecline`. */
        onCancel?: Handler<Single<S, `answer.${K}.cancel`>, TC, TNames>;
        /** Where to go when the client cannot be asked (no capability); else the call is refused. */
        onUnsupported?: Handler<Single<S, `answer.${K}.unsupported`>, TC, TNames>;
      },
    ) => InputState<K, NoInfer<TA | TD | TC>>
  : <const TR extends string = never, const TU extends string = never>(
      handlers: AskOptions & {
        onResult: Handler<Single<S, `answer.${K}.result`>, TR, TNames>;
        onUnsupported?: Handler<Single<S, `answer.${K}.unsupported`>, TU, TNames>;
      },
    ) => ResultState<K, NoInfer<TR | TU>>;

/** `ask` of `toolSetup`: one builder per declared question, by key. */
export type AskBuilders<S extends MachineSetup, TQuestions, TNames extends Names = Names> = {
  [K in keyof TQuestions & string]: AskFor<S, K, TQuestions[K], TNames>;
};

/**
 * The builders at run time: each writes the state node the ask… helper of its kind writes, the
 * same node a plain question state becomes in `createMachine` (question-states.ts).
 */
export function askBuilders(questions: Record<string, QuestionSpec>): Record<string, (handlers: any) => unknown> {
  const builders: Record<string, (handlers: any) => unknown> = {};
  for (const [key, spec] of Object.entries(questions)) {
    const question = questionOf(key, spec);
    builders[key] = (handlers) => {
      if (question.kind === 'form') return askForm({ ...question, ...handlers });
      if (question.kind === 'url') return askUrl({ ...question, ...handlers });
      if (question.kind === 'sampling') return askSampling({ ...question, ...handlers });
      return askRoots({ key, ...handlers });
    };
  }
  return builders;
}
