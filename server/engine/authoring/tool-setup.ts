/**
 * `toolSetup`: XState's `setup` for a tool, with the tool's own types bound in. Declare the
 * questions once (by key, each with its schema) and the input schema; then
 *
 * - `ask.<key>({ onAccept, onDecline })` builds the input state, and `event.content` in its
 *   handlers is typed from the question's schema;
 * - `createMachine` types `input` from `inputSchema`, checks every target and event name
 *   (target-checks.ts), and supplies the root `output` (the final state's output is the result);
 * - `defineTool` takes the schemas from here, so nothing is written twice.
 *
 * Everything else (`actions`, `guards`, `actors`, `delays`, `assign`, …) is XState's own.
 */
import {
  setup,
  type ActionFunction,
  type AnyStateMachine,
  type DelayConfig,
  type EventObject,
  type GuardPredicate,
  type MachineContext,
  type MetaObject,
  type ParameterizedObject,
  type SetupReturn,
  type UnknownActorLogic,
  type Values,
} from 'xstate';
import { askForm, askRoots, askSampling, askUrl } from './input-states.js';
import type { AnswerEventsOf, FromObjectSchema, ObjectSchema, QuestionSpec } from './question-specs.js';
import type { CheckNode } from './target-checks.js';
import { defineTool, type ToolDefinition, type ToolSpec } from './tool-definition.js';

type Params = Record<string, ParameterizedObject['params'] | undefined>;
/** XState's own default for "none given" (`{}`), spelled so the linter accepts it. */
type None = Record<never, never>;
type ToParameterized<T extends Params> = Values<{ [K in keyof T as K & string]: { type: K & string; params: T[K] } }>;
type ToProvidedActor<TActors extends Record<string, UnknownActorLogic>> = Values<{
  [K in keyof TActors as K & string]: { src: K & string; logic: TActors[K]; id: string | undefined };
}>;

/** Where an answer goes: a target, a transition, or guarded transitions (first match wins). */
type Handler<TSingle, TTarget extends string> =
  TTarget | (TSingle & { target?: TTarget }) | ReadonlyArray<TSingle & { target?: TTarget }>;

interface AskOptions {
  /** The answer commits an effect: this state's sealed state is accepted once only. */
  singleUse?: boolean;
}

export interface ToolSetupSpec<
  TQuestions,
  TInputSchema,
  TContext extends MachineContext,
  TEvent extends EventObject,
  TActors extends Record<string, UnknownActorLogic>,
  TActions extends Params,
  TGuards extends Params,
  TDelay extends string,
> {
  /** JSON Schema (2020-12) of the arguments, `type: "object"` at the root; the machine's input is typed from it. */
  inputSchema: TInputSchema;
  outputSchema?: ObjectSchema;
  /** Every question the machine asks, by key. */
  questions: TQuestions;
  /** The context's type (`{} as { context: … }`), and events of your own besides the answers. */
  types?: { context?: TContext; events?: TEvent };
  actors?: TActors;
  actions?: {
    [K in keyof TActions]: ActionFunction<
      TContext,
      AnswerEventsOf<TQuestions> | TEvent,
      AnswerEventsOf<TQuestions> | TEvent,
      TActions[K],
      ToProvidedActor<TActors>,
      ToParameterized<TActions>,
      ToParameterized<TGuards>,
      TDelay,
      EventObject
    >;
  };
  guards?: {
    [K in keyof TGuards]: GuardPredicate<
      TContext,
      AnswerEventsOf<TQuestions> | TEvent,
      TGuards[K],
      ToParameterized<TGuards>
    >;
  };
  delays?: {
    [K in TDelay]: DelayConfig<
      TContext,
      AnswerEventsOf<TQuestions> | TEvent,
      ToParameterized<TActions>['params'],
      TEvent
    >;
  };
}

const rootOutput = ({ event }: { event: { output?: unknown } }) => event.output;

export function toolSetup<
  const TQuestions extends Record<string, QuestionSpec<TContext>>,
  const TInputSchema extends ObjectSchema,
  TContext extends MachineContext = Record<string, never>,
  TEvent extends EventObject = never,
  TActors extends Record<string, UnknownActorLogic> = None,
  TActions extends Params = None,
  TGuards extends Params = None,
  TDelay extends string = never,
>(spec: ToolSetupSpec<TQuestions, TInputSchema, TContext, TEvent, TActors, TActions, TGuards, TDelay>) {
  type Events = AnswerEventsOf<TQuestions> | TEvent;
  type Input = FromObjectSchema<TInputSchema>;
  const { inputSchema, outputSchema, questions, ...rest } = spec;
  const base = setup(rest as Parameters<typeof setup>[0]) as unknown as SetupReturn<
    TContext,
    Events,
    TActors,
    None,
    TActions,
    TGuards,
    TDelay,
    string,
    Input,
    unknown,
    EventObject,
    MetaObject
  >;
  type Config = Parameters<typeof base.createMachine>[0];
  type On = NonNullable<Config['on']>;
  type Single<E extends string> = Exclude<Extract<NonNullable<On[E & keyof On]>, object>, readonly unknown[]>;
  type AskFor<K extends string, Q> = Q extends { kind: 'form' | 'url' }
    ? <const TA extends string = never, const TD extends string = never, const TC extends string = never>(
        handlers: AskOptions & {
          onAccept: Handler<Single<`answer.${K}.accept`>, TA>;
          /** Declining is an ordinary outcome: say where it goes. */
          onDecline: Handler<Single<`answer.${K}.decline`>, TD>;
          /** Defaults to `onDecline`. */
          onCancel?: Handler<Single<`answer.${K}.cancel`>, TC>;
          /** Where to go when the client cannot be asked (no capability); else the call is refused. */
          onUnsupported?: Handler<Single<`answer.${K}.unsupported`>, TC>;
        },
      ) => InputState<`answer.${K}.${'accept' | 'decline' | 'cancel'}`, TA | TD | TC>
    : <const TR extends string = never, const TU extends string = never>(
        handlers: AskOptions & {
          onResult: Handler<Single<`answer.${K}.result`>, TR>;
          onUnsupported?: Handler<Single<`answer.${K}.unsupported`>, TU>;
        },
      ) => InputState<`answer.${K}.result`, TR | TU>;

  const ask = {} as { [K in keyof TQuestions & string]: AskFor<K, TQuestions[K]> };
  for (const [key, question] of Object.entries(questions as Record<string, QuestionSpec>)) {
    (ask as Record<string, (handlers: any) => unknown>)[key] = (handlers) => {
      if (question.kind === 'form')
        return askForm({ ...question, notSecret: question.notSecret && [...question.notSecret], key, ...handlers });
      if (question.kind === 'url') return askUrl({ ...question, key, ...handlers });
      if (question.kind === 'sampling') return askSampling({ ...question, key, ...handlers });
      return askRoots({ key, ...handlers });
    };
  }

  return {
    ...base,
    /** One input-state builder per declared question: `ask.<key>({ onAccept, onDecline })`. */
    ask,
    /**
     * XState's `createMachine`, with targets and event names checked and the root `output`
     * supplied (the final state's output becomes the tool result) unless the config gives one.
     */
    createMachine<const TConfig extends Config>(config: TConfig & NoInfer<CheckNode<TConfig, never, Events['type']>>) {
      return base.createMachine({ output: rootOutput, ...(config as object) } as TConfig);
    },
    /** `defineTool` with this setup's schemas; `exampleArguments` typed from `inputSchema`. */
    defineTool(
      tool: Omit<ToolSpec, 'inputSchema' | 'outputSchema' | 'exampleArguments' | 'exampleAnswers'> & {
        machine: AnyStateMachine;
        exampleArguments?: Input;
        exampleAnswers?: { [K in keyof TQuestions]?: unknown };
      },
    ): ToolDefinition {
      return defineTool({
        ...tool,
        inputSchema: inputSchema as Record<string, unknown>,
        ...(outputSchema ? { outputSchema: outputSchema as Record<string, unknown> } : {}),
      } as ToolSpec);
    },
  };
}

/**
 * What `ask.<key>` returns, as far as the machine's types see it: the answer events it handles
 * and the targets they go to (checked by `createMachine`). At run time it is the full state node.
 */
export interface InputState<TEventType extends string, TTarget extends string> {
  tags: string[];
  meta: Record<string, unknown>;
  on: { [E in TEventType]: TTarget };
}
