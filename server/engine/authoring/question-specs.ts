/**
 * Questions declared once, by key, for `toolSetup` (tool-setup.ts), and the answer events the
 * machine receives for them, typed from each question's JSON Schema with json-schema-to-ts
 * (`FromSchema`, types only: nothing of it runs). Declaring a question names its key once: the
 * record key is the key on the wire, in the event names, and in `ask.<key>(…)`.
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Values } from 'xstate';

type Computed<T, TContext> = T | ((args: { context: TContext }) => T);

/** A JSON Schema object (form schemas, tool schemas) as a literal, so its type can be read. */
export type ObjectSchema = Exclude<JSONSchema, boolean> & { type: 'object' };

/** A form question (form-mode elicitation): a message and a flat object schema the user fills. */
export interface FormSpec<TContext = any> {
  kind: 'form';
  message: Computed<string, TContext>;
  /** A flat object schema (spec, elicitation `requestedSchema`); the answer content is typed from it. */
  schema: Computed<ObjectSchema, TContext>;
  /** Fields named like secrets that are not (`tokenCount`); see secret-fields.ts. */
  notSecret?: readonly string[];
}
/**
 * A URL question (URL-mode elicitation): the user is sent to a page, for what must not pass
 * through the client (a secret key, a payment). Accepting only means they agreed to open it.
 */
export interface UrlSpec<TContext = any> {
  kind: 'url';
  message: Computed<string, TContext>;
  /** A function also gets `pageRef`, the sealed reference the page checks (page-reference.ts). */
  url: string | ((args: { context: TContext; pageRef: string }) => string);
  subject?: Computed<string, TContext>;
}
/** A sampling request to the client's model (deprecated in 2026-07-28, still served). */
export interface SamplingSpec<TContext = any> {
  kind: 'sampling';
  request: Computed<Record<string, unknown>, TContext>;
}
/** A request for the client's roots (deprecated in 2026-07-28, still served). */
export interface RootsSpec {
  kind: 'roots';
}
/**
 * One question as `toolSetup`'s `questions` declares it, by kind. A message, schema or request
 * may be a function of the context, computed each time the question is asked.
 */
export type QuestionSpec<TContext = any> = FormSpec<TContext> | UrlSpec<TContext> | SamplingSpec<TContext> | RootsSpec;

type Resolved<T> = T extends (...args: any[]) => infer R ? R : T;
/**
 * `T` without its index signatures: only the properties it names. json-schema-to-ts gives an
 * object schema without `additionalProperties: false` an index signature (`[x: string]: unknown`),
 * which would let a misspelled field (`content.confrim`) compile.
 */
export type DeclaredProperties<T> = T extends object
  ? { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] }
  : T;
/**
 * The content of an accepted form answer: exactly the properties its schema declares (already
 * validated by the engine), whatever `additionalProperties` says. Extra fields a client sends are
 * not the machine's business: a form asks for what it names.
 */
export type FormContentOf<Q> = Q extends { schema: infer S }
  ? DeclaredProperties<FromObjectSchema<Resolved<S>>>
  : never;

/** What a sampling request's answer carries (`event.result` of `answer.<key>.result`). */
export interface SamplingResult {
  role: string;
  content: unknown;
  model: string;
  stopReason?: string;
}

type EventsFor<K extends string, Q> = Q extends { kind: 'form' | 'url' }
  ? | (Q extends { kind: 'form' }
        ? { type: `answer.${K}.accept`; content: FormContentOf<Q> }
        : { type: `answer.${K}.accept` })
    | { type: `answer.${K}.decline` }
    | { type: `answer.${K}.cancel` }
    | { type: `answer.${K}.unsupported` }
  : Q extends { kind: 'sampling' }
    ? { type: `answer.${K}.result`; result: SamplingResult } | { type: `answer.${K}.unsupported` }
    : | { type: `answer.${K}.result`; roots: Array<{ uri: string; name?: string }> }
      | { type: `answer.${K}.unsupported` };

/**
 * The answer events a state asking each question must handle, by key: accept, decline and
 * cancel for a form or URL question (declining is an ordinary outcome), the result otherwise.
 * The start-up checks refuse a question state without them; the typed config says so sooner.
 */
export type AnswersNeeded<TQuestions> = {
  [K in keyof TQuestions & string]: TQuestions[K] extends { kind: 'form' | 'url' }
    ? `answer.${K}.${'accept' | 'decline' | 'cancel'}`
    : `answer.${K}.result`;
};

/** Every event the machine can receive from the answers to `TQuestions`. */
export type AnswerEventsOf<TQuestions> = Values<{ [K in keyof TQuestions & string]: EventsFor<K, TQuestions[K]> }>;

/** The value an object schema admits, as json-schema-to-ts reads it. */
export type FromObjectSchema<S> = S extends JSONSchema ? FromSchema<S> : never;

/**
 * The arguments `inputSchema` admits, as the machine's `input`: the declared properties, and an
 * index signature for others only where the schema asks for them (`additionalProperties: true`
 * or a schema), so `input.amuont` does not compile merely because `additionalProperties` was left out.
 */
export type ArgumentsOf<S> = S extends { additionalProperties: true | object }
  ? FromObjectSchema<S>
  : DeclaredProperties<FromObjectSchema<S>>;

/** A form's answer as the client sends it, named so a type error names it in a few words. */
export type FormResponse<TContent> =
  { action: 'accept'; content: TContent } | { action: 'decline' } | { action: 'cancel' };
/** A URL question's answer: accepting only says the user agreed to open the page. */
export type UrlResponse = { action: 'accept' | 'decline' | 'cancel' };
/** A roots request's answer (`roots/list` result). */
export type RootsResponse = { roots: Array<{ uri: string; name?: string }> };

/**
 * What a client sends in `inputResponses` for one question, typed from its declaration: a form's
 * accept carries exactly the content its schema declares (a misspelled field, or a value outside
 * an `enum`, does not compile), a URL question's accept carries nothing.
 */
export type ResponseOf<Q> = Q extends { kind: 'form' }
  ? FormResponse<FormContentOf<Q>>
  : Q extends { kind: 'url' }
    ? UrlResponse
    : Q extends { kind: 'sampling' }
      ? SamplingResult
      : RootsResponse;

/** The response to each declared question, by key (what `exampleAnswers` and the test kit's answers are typed from). */
export type ResponsesOf<TQuestions> = Flat<{ [K in keyof TQuestions & string]: ResponseOf<TQuestions[K]> }>;
/** The same object type without its alias, so an error prints the responses (`{ team: FormResponse<…> }`), not the questions. */
type Flat<T> = T extends infer U ? { [K in keyof U]: U[K] } : never;
