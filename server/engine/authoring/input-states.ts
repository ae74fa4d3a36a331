/**
 * The authoring helpers that mark a state node as waiting for client input.
 *
 * An input state carries its question in `meta['baton.input']` and the `baton.input` tag, and
 * handles the answer events the engine builds from the client's `inputResponses`. The client never
 * names an event: the engine maps each answer to `answer.<key>.<outcome>` of the state that asked.
 */
import { emit, type AnyEventObject } from 'xstate';

/** The tag of a state that asks a question (`tags: ['baton.input']`): the engine asks it while the flow waits there. */
export const INPUT_TAG = 'baton.input';
/** Marks a question whose answer commits an effect: its sealed state is accepted once only. */
export const SINGLE_USE_TAG = 'baton.singleUse';
/** The meta key naming the question a state asks: `meta: { 'baton.input': { key: 'name' } }`. */
export const INPUT_META = 'baton.input';

/** What a question may depend on: the machine's context at the moment it is asked. */
export interface QuestionArgs<TContext> {
  context: TContext;
}
export type Computed<T, TContext> = T | ((args: QuestionArgs<TContext>) => T);

/** The flat object schema the spec allows for form elicitation (`requestedSchema`). */
export interface FormSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  [extra: string]: unknown;
}

export interface FormQuestion<TContext = any> {
  kind: 'form';
  key: string;
  message: Computed<string, TContext>;
  schema: Computed<FormSchema, TContext>;
  /**
   * Fields whose names look like secrets but are not (`tokenCount`): forms may not ask for
   * secrets, and a field named like one is refused unless listed here (secret-fields.ts).
   */
  notSecret?: string[];
}
export interface UrlQuestion<TContext = any> {
  kind: 'url';
  key: string;
  message: Computed<string, TContext>;
  /**
   * The page's URL. A function also gets `pageRef`: an unguessable reference sealed for this flow
   * and the principal who started it, carrying `subject`. Put it in the URL; the page opens it
   * with `verifyPageVisit` and refuses anyone else (page-reference.ts).
   */
  url: string | ((args: QuestionArgs<TContext> & { pageRef: string }) => string);
  /** What the page reference tells the page (which account, which connection); never in the URL itself. */
  subject?: Computed<string, TContext>;
}
export interface SamplingQuestion<TContext = any> {
  kind: 'sampling';
  key: string;
  request: Computed<Record<string, unknown>, TContext>;
}
export interface RootsQuestion {
  kind: 'roots';
  key: string;
}
/**
 * A question as it sits in a state's meta once `createMachine` (or an ask helper) has filled it
 * in: its key and kind, and what the engine sends the client.
 */
export type Question<TContext = any> =
  FormQuestion<TContext> | UrlQuestion<TContext> | SamplingQuestion<TContext> | RootsQuestion;
/** `form`, `url`, `sampling` or `roots`. */
export type QuestionKind = Question['kind'];

/** Event names the engine sends for an answer to `key`. Stable, so diagrams can label them. */
export const answerEvent = {
  accept: (key: string) => `answer.${key}.accept`,
  decline: (key: string) => `answer.${key}.decline`,
  cancel: (key: string) => `answer.${key}.cancel`,
  result: (key: string) => `answer.${key}.result`,
  /** Sent instead of asking when the client did not declare the capability the question needs. */
  unsupported: (key: string) => `answer.${key}.unsupported`,
} as const;

/** Events a machine receives from answers. `content` is already validated against the schema. */
export interface FormAcceptEvent<TContent = Record<string, unknown>> {
  type: `answer.${string}.accept`;
  content: TContent;
}
/** The user declined the question (`answer.<key>.decline`): an ordinary outcome the machine handles. */
export interface DeclineEvent {
  type: `answer.${string}.decline`;
}
/** The user dismissed the question without choosing (`answer.<key>.cancel`). */
export interface CancelEvent {
  type: `answer.${string}.cancel`;
}
/** Sent instead of the question when the client lacks its capability (`answer.<key>.unsupported`). */
export interface UnsupportedEvent {
  type: `answer.${string}.unsupported`;
}
/** The client's model answered a sampling request (`answer.<key>.result`). */
export interface SamplingResultEvent {
  type: `answer.${string}.result`;
  result: { role: string; content: unknown; model: string; stopReason?: string };
}
/** The client listed its roots (`answer.<key>.result`). */
export interface RootsResultEvent {
  type: `answer.${string}.result`;
  roots: Array<{ uri: string; name?: string }>;
}
/** Any answer event the engine sends a machine, for code that handles answers generically. */
export type AnswerEvent = FormAcceptEvent | DeclineEvent | CancelEvent | SamplingResultEvent | RootsResultEvent;

/** A transition target as XState accepts it (a target string or a transition config). */
type Transition = string | Record<string, unknown> | Array<Record<string, unknown>>;

interface Fallback {
  /**
   * The answer to this question commits an effect (a payment, a release): the state that carries
   * it is accepted once only, across every instance sharing the guard.
   */
  singleUse?: boolean;
  /**
   * Where to go when the client cannot be asked this kind of question (it did not declare the
   * capability). Without it, such a call is refused with -32021 (spec, basic "Error Codes").
   */
  onUnsupported?: Transition;
}

function withFallback(key: string, on: Record<string, Transition>, fallback: Fallback): Record<string, Transition> {
  return fallback.onUnsupported === undefined ? on : { ...on, [answerEvent.unsupported(key)]: fallback.onUnsupported };
}

interface Handlers {
  /** Where an answer that the user declined goes. Required: declining is an ordinary outcome. */
  onDecline: Transition;
  /** Where a cancelled answer goes; defaults to `onDecline`. */
  onCancel?: Transition;
}

function stateNodeFor(question: Question, on: Record<string, Transition>, options: Fallback = {}) {
  // Typed loosely on purpose: the fragment is spread into a machine config whose own typing
  // (setup({ types })) decides the event union; XState validates the shape at runtime.
  return {
    tags: options.singleUse ? [INPUT_TAG, SINGLE_USE_TAG] : [INPUT_TAG],
    meta: { [INPUT_META]: question },
    on,
  } as any;
}

function declineAndCancel(key: string, handlers: Handlers) {
  return {
    [answerEvent.decline(key)]: handlers.onDecline,
    [answerEvent.cancel(key)]: handlers.onCancel ?? handlers.onDecline,
  };
}

/** Ask the user to fill a form (form-mode elicitation). Never for secrets: use `askUrl`. */
export function askForm<TContext = any>(
  spec: Omit<FormQuestion<TContext>, 'kind'> & Handlers & Fallback & { onAccept: Transition },
) {
  const { key, message, schema, onAccept, notSecret } = spec;
  return stateNodeFor(
    { kind: 'form', key, message, schema, ...(notSecret ? { notSecret } : {}) },
    withFallback(key, { [answerEvent.accept(key)]: onAccept, ...declineAndCancel(key, spec) }, spec),
    spec,
  );
}

/**
 * Send the user to a URL (URL-mode elicitation). `accept` only means the user agreed to open it:
 * the machine must check on the retry whether what the page does has happened (spec, elicitation).
 */
export function askUrl<TContext = any>(
  spec: Omit<UrlQuestion<TContext>, 'kind'> & Handlers & Fallback & { onAccept: Transition },
) {
  const { key, message, url, subject, onAccept } = spec;
  return stateNodeFor(
    { kind: 'url', key, message, url, ...(subject === undefined ? {} : { subject }) },
    withFallback(key, { [answerEvent.accept(key)]: onAccept, ...declineAndCancel(key, spec) }, spec),
    spec,
  );
}

/** Ask the client's model for a completion (sampling; deprecated in 2026-07-28, still served). */
export function askSampling<TContext = any>(
  spec: Omit<SamplingQuestion<TContext>, 'kind'> & Fallback & { onResult: Transition },
) {
  const { key, request, onResult } = spec;
  return stateNodeFor(
    { kind: 'sampling', key, request },
    withFallback(key, { [answerEvent.result(key)]: onResult }, spec),
    spec,
  );
}

/** Ask the client for its roots (deprecated in 2026-07-28, still served). */
export function askRoots(spec: { key: string; onResult: Transition } & Fallback) {
  return stateNodeFor(
    { kind: 'roots', key: spec.key },
    withFallback(spec.key, { [answerEvent.result(spec.key)]: spec.onResult }, spec),
    spec,
  );
}

/** The event a machine emits to report progress; forwarded as notifications/progress. */
export const PROGRESS_EVENT = 'baton.progress';
/** A progress notification as the machine emits it (`reportProgress` builds it). */
export interface ProgressReport {
  type: typeof PROGRESS_EVENT;
  progress: number;
  total?: number;
  message?: string;
}

/**
 * An action that reports progress to the client (spec, basic/patterns/progress), when the request
 * asked for it with a progressToken. Values must increase; the engine drops any that do not.
 * @example
 * ```ts
 * import { fromPromise } from 'xstate';
 * import { reportProgress, toolSetup } from 'baton-mcp';
 *
 * const build = toolSetup({
 *   inputSchema: { type: 'object', properties: {} },
 *   questions: {},
 *   actors: { compile: fromPromise(async () => 'built') },
 * });
 *
 * export const buildMachine = build.createMachine({
 *   id: 'build',
 *   initial: 'compiling',
 *   context: {},
 *   states: {
 *     compiling: {
 *       // Sent as notifications/progress when the call asked for progress (a progressToken).
 *       entry: reportProgress({ progress: 1, total: 2, message: 'compiling' }),
 *       invoke: { src: 'compile', onDone: 'done' },
 *     },
 *     done: { type: 'final', entry: reportProgress({ progress: 2, total: 2 }), output: 'built' },
 *   },
 * });
 * ```
 */
export function reportProgress<TContext = any, TEvent extends AnyEventObject = AnyEventObject>(
  report: Omit<ProgressReport, 'type'> | ((args: { context: TContext; event: TEvent }) => Omit<ProgressReport, 'type'>),
) {
  return emit(({ context, event }) => ({
    type: PROGRESS_EVENT,
    ...(typeof report === 'function' ? report({ context: context as TContext, event: event as TEvent }) : report),
  })) as any;
}

/** Narrow an answer event to its form content, typed by the caller. */
export function formContent<T = Record<string, unknown>>(event: AnyEventObject): T {
  return (event as unknown as FormAcceptEvent<T>).content;
}
