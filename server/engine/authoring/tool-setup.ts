/**
 * `toolSetup`: XState's `setup` for a tool, with the tool's own types bound in. Declare the
 * questions once (by key, each with its schema) and the input schema; then
 *
 * - a state asks a question as plain data, `{ tags: ['baton.input'], meta: { 'baton.input':
 *   { key } }, on: { 'answer.<key>.accept': …, … } }` (question-states.ts), and `event.content`
 *   in its `answer.<key>.accept` handler is typed from the question's schema;
 * - `ask.<key>({ onAccept, onDecline })` builds the same state at run time, from a call that
 *   XState's tooling cannot read inside;
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
import { askBuilders, type AskBuilders, type ConfigOf, type MachineSetup } from './ask-builders.js';
import type {
  AnswerEventsOf,
  AnswersNeeded,
  ArgumentsOf,
  ObjectSchema,
  QuestionSpec,
  ResponsesOf,
} from './question-specs.js';
import { withDeclaredQuestions } from './question-states.js';
import type { CheckedConfig, Names } from './target-checks.js';
import { defineTool, type AnswersFor, type ToolDefinition, type ToolSpec } from './tool-definition.js';

type Params = Record<string, ParameterizedObject['params'] | undefined>;
/** XState's own default for "none given" (`{}`), spelled so the linter accepts it. */
type None = Record<never, never>;
type ToParameterized<T extends Params> = Values<{ [K in keyof T as K & string]: { type: K & string; params: T[K] } }>;
type ToProvidedActor<TActors extends Record<string, UnknownActorLogic>> = Values<{
  [K in keyof TActors as K & string]: { src: K & string; logic: TActors[K]; id: string | undefined };
}>;

/**
 * What `toolSetup` takes: the tool's input schema and questions, its context type, and XState's
 * own `actors`, `actions`, `guards` and `delays`, typed against the answer events.
 */
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

/**
 * Any name, as far as XState's own types see guards and actions: `createMachine`'s checks
 * (target-checks.ts) hold each name to what the setup implements, in one sentence naming the
 * nearest, where XState's refusal would be a page about its guard and action types. XState's
 * types must let the name through for the config to be inferred as written and checked at all.
 */
type AnyName = Record<string, undefined>;

/** XState's setup, typed for the tool (what `toolSetup` builds on). */
type BaseSetup<
  TContext extends MachineContext,
  TEvents extends EventObject,
  TActors extends Record<string, UnknownActorLogic>,
  TActions extends Params,
  TGuards extends Params,
  TDelay extends string,
  TInput,
> = SetupReturn<
  TContext,
  TEvents,
  TActors,
  None,
  TActions,
  TGuards,
  TDelay,
  string,
  TInput,
  unknown,
  EventObject,
  MetaObject
>;

/** What `toolSetup` returns: XState's setup, with `ask`, a checked `createMachine`, and `defineTool`. */
export type ToolSetup<
  S extends MachineSetup,
  TQuestions,
  TInput,
  TEventType extends string,
  TNames extends Names = Names,
> = Omit<S, 'createMachine'> & {
  /**
   * One input-state builder per declared question: `ask.<key>({ onAccept, onDecline })`.
   * @example
   * ```ts
   * import { assign } from 'xstate';
   * import { toolSetup } from 'baton-mcp';
   *
   * const naming = toolSetup({
   *   inputSchema: { type: 'object', properties: {} },
   *   questions: {
   *     name: {
   *       kind: 'form',
   *       message: 'Your name?',
   *       schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
   *     },
   *   },
   *   types: {} as { context: { name: string } },
   * });
   *
   * export const namingMachine = naming.createMachine({
   *   id: 'naming',
   *   initial: 'askName',
   *   context: { name: '' },
   *   states: {
   *     // The same state as a plain question state, built by a call (which XState's editor cannot read).
   *     askName: naming.ask.name({
   *       onAccept: { target: 'named', actions: assign({ name: ({ event }) => event.content.name }) },
   *       onDecline: 'anonymous', // and onCancel, unless given
   *     }),
   *     named: { type: 'final', output: ({ context }) => `Hello, ${context.name}.` },
   *     anonymous: { type: 'final', output: 'Hello.' },
   *   },
   * });
   * ```
   */
  ask: AskBuilders<S, TQuestions, TNames>;
  /**
   * XState's `createMachine`, with targets, event names and question states checked, each
   * question state given its declared question, and the root `output` supplied (the final
   * state's output becomes the tool result) unless the config gives one.
   */
  createMachine<const TConfig extends ConfigOf<S>>(
    config: CheckedConfig<TConfig, ConfigOf<S>, TEventType, AnswersNeeded<TQuestions>, TNames>,
  ): ReturnType<S['createMachine']>;
  /**
   * `defineTool` with this setup's schemas: `exampleArguments` typed from `inputSchema`, and
   * `exampleAnswers` and `examples[].answers` from each question's schema (an undeclared key, a
   * misspelled field or a value outside an `enum` does not compile). The tool it returns carries
   * those types on to the test kit's answers (`runFlow`, `describePaths`).
   */
  defineTool(
    tool: Omit<ToolSpec, 'inputSchema' | 'outputSchema' | 'exampleArguments' | 'exampleAnswers' | 'examples'> & {
      machine: AnyStateMachine;
      exampleArguments?: TInput;
      exampleAnswers?: AnswersFor<ResponsesOf<TQuestions>>;
      examples?: Array<{ title: string; arguments?: TInput; answers?: AnswersFor<ResponsesOf<TQuestions>> }>;
    },
  ): ToolDefinition<AnyStateMachine, ResponsesOf<TQuestions>>;
};

/**
 * XState's `setup` for one tool: declare its input schema and its questions once, by key, and get
 * back a `createMachine` that types `input` and each answer's content from the schemas and checks
 * every target, event name and question state at compile time, the `ask.<key>` builders, and a
 * `defineTool` that reuses the schemas. Start every tool here.
 * @example
 * ```ts
 * import { toolSetup } from 'baton-mcp';
 *
 * const approval = toolSetup({
 *   inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
 *   questions: {
 *     confirm: {
 *       kind: 'form',
 *       message: ({ context }) => `Approve ${context.amount}?`,
 *       schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
 *     },
 *   },
 *   types: {} as { context: { amount: number } },
 * });
 *
 * export const approvalTool = approval.defineTool({
 *   name: 'approval',
 *   description: 'Approves an amount.',
 *   machine: approval.createMachine({
 *     id: 'approval',
 *     initial: 'confirm',
 *     context: ({ input }) => ({ amount: input.amount }),
 *     states: {
 *       // A question is a plain state: the tag, the key it asks, a transition for each answer.
 *       confirm: {
 *         tags: ['baton.input'],
 *         meta: { 'baton.input': { key: 'confirm' } },
 *         on: {
 *           'answer.confirm.accept': [
 *             { guard: ({ event }) => event.content.ok, target: 'approved' },
 *             { target: 'refused' },
 *           ],
 *           'answer.confirm.decline': 'refused',
 *           'answer.confirm.cancel': 'refused',
 *         },
 *       },
 *       approved: { type: 'final', output: ({ context }) => `Approved ${context.amount}.` },
 *       refused: { type: 'final', output: 'Not approved.' },
 *     },
 *   }),
 * });
 * ```
 */
export function toolSetup<
  const TQuestions extends Record<string, QuestionSpec<TContext>>,
  const TInputSchema extends ObjectSchema,
  TContext extends MachineContext = Record<string, never>,
  TEvent extends EventObject = never,
  TActors extends Record<string, UnknownActorLogic> = None,
  TActions extends Params = None,
  TGuards extends Params = None,
  TDelay extends string = never,
>(
  spec: ToolSetupSpec<TQuestions, TInputSchema, TContext, TEvent, TActors, TActions, TGuards, TDelay>,
): ToolSetup<
  BaseSetup<
    TContext,
    AnswerEventsOf<TQuestions> | TEvent,
    TActors,
    TActions & AnyName,
    TGuards & AnyName,
    TDelay,
    ArgumentsOf<TInputSchema>
  >,
  TQuestions,
  ArgumentsOf<TInputSchema>,
  (AnswerEventsOf<TQuestions> | TEvent)['type'],
  { guards: keyof TGuards & string; actions: keyof TActions & string }
> {
  const { inputSchema, outputSchema, questions, ...rest } = spec;
  const base = setup(rest as Parameters<typeof setup>[0]);
  return {
    ...base,
    ask: askBuilders(questions as Record<string, QuestionSpec>) as never,
    createMachine: (config: object) =>
      base.createMachine({
        output: rootOutput,
        ...withDeclaredQuestions(config, questions as Record<string, QuestionSpec>),
      } as never) as never,
    defineTool: (tool: Omit<ToolSpec, 'inputSchema'>) =>
      defineTool({
        ...tool,
        inputSchema: inputSchema as Record<string, unknown>,
        ...(outputSchema ? { outputSchema: outputSchema as Record<string, unknown> } : {}),
      } as ToolSpec),
  } as never;
}
