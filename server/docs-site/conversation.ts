/**
 * Runs a flow's example for real: the same dispatcher and flow engine the server uses, a client
 * that declares every capability, and canned answers, round after round until the flow answers.
 * What comes back is the exchange as it went over the wire (sealed states shortened), for the
 * sequence diagram, the wire example and the decline/cancel table.
 *
 * The run is made deterministic so the committed pages do not churn: a fixed clock, counter-based
 * randomness and a throwaway key (this key and these tokens are never accepted by a real server),
 * and random UUIDs that reach the text (a connection id in a URL) replaced in order of appearance.
 */
import type { AnyActorLogic, AnyStateMachine } from 'xstate';
import {
  Cancellation,
  docsEffectProblems,
  FlowEngine,
  KeyRing,
  openState,
  PromptRegistry,
  ResourceRegistry,
  silentLogger,
  TASKS_EXTENSION,
  ToolRegistry,
  type InputRequest,
} from '../engine/index.js';
import { ANONYMOUS, createMcpDispatcher, META, type JsonRpcResponse } from '../protocol/index.js';
import { BATON_VERSION } from '../version.js';
import { exampleAnswer } from './example-answers.js';
import { exampleParams, flowMethod, type DocumentedFlow } from './documented-flow.js';
import { exampleTasks, followTask } from './task-conversation.js';

export const EXAMPLE_PROTOCOL_VERSION = '2026-07-28';
export const EXAMPLE_CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
const EXAMPLE_CLOCK = Date.UTC(2026, 6, 28, 12, 0, 0);
const DOCS_KEY_ID = 'docs';
const STATE_LENGTH_LIMIT = 1 << 20;

/** One round as shown in the docs: sealed states are shortened (see `shortenState`). */
export interface ConversationRound {
  /** The JSON-RPC request as sent. */
  request: { jsonrpc: '2.0'; id: number; method: string; params: Record<string, unknown> };
  response: JsonRpcResponse;
  /** The states the machine waits in after this round (leaf paths), when it asks. */
  waitingIn: string[];
  /** What the client answered, by key, sent with the next round. */
  answers: Record<string, unknown>;
}

export interface Conversation {
  rounds: ConversationRound[];
  /** `complete`: a result; `error`: a JSON-RPC error; `unfinished`: still asking after `maxRounds`. */
  outcome: 'complete' | 'error' | 'unfinished';
}

/** Chooses the answer to one question; `occurrence` counts how often this key was asked (0-based). */
export type AnswerPolicy = (key: string, request: InputRequest, occurrence: number) => unknown;

export interface ConversationOptions {
  /** Overrides the default answers (the tool's `exampleAnswers`, then the schema's examples). */
  answer?: AnswerPolicy;
  maxRounds?: number;
  signal?: AbortSignal;
  /**
   * Actors provided over the tool's `exampleActors` (a test's stand-ins). With `allowEffects` the
   * run may invoke actors that have an effect (a test that means it); the docs never set it.
   */
  actors?: Record<string, AnyActorLogic>;
  allowEffects?: boolean;
}

/** The tool's own example answers first, then answers derived from each question. */
export function defaultAnswers(flow: DocumentedFlow): AnswerPolicy {
  const given = flow.kind === 'tool' ? (flow.definition.exampleAnswers ?? {}) : {};
  return (key, request, occurrence) => {
    if (!(key in given)) return exampleAnswer(request);
    const answer = given[key];
    return Array.isArray(answer) ? answer[Math.min(occurrence, answer.length - 1)] : answer;
  };
}

function counterBytes(): (length: number) => Uint8Array {
  let counter = 0;
  return (length) => Uint8Array.from({ length }, () => counter++ & 0xff);
}

function withExampleActors(flow: DocumentedFlow, options: ConversationOptions): DocumentedFlow {
  if (flow.kind !== 'tool') return flow;
  // The example runs for real: an effect without a stand-in would happen (a deploy from the docs).
  const problems = options.allowEffects ? [] : docsEffectProblems(flow.definition);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const actors = { ...flow.definition.exampleActors, ...options.actors };
  if (Object.keys(actors).length === 0) return flow;
  const machine = (flow.definition.machine as AnyStateMachine).provide({ actors });
  return { kind: 'tool', definition: { ...flow.definition, machine } };
}

function leafPaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [`${prefix}${value}`];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, `${prefix}${key}.`));
}

export async function runConversation(flow: DocumentedFlow, options: ConversationOptions = {}): Promise<Conversation> {
  const subject = withExampleActors(flow, options);
  const keyRing = new KeyRing([{ id: DOCS_KEY_ID, secret: new Uint8Array(32) }]);
  const engine = new FlowEngine({
    keyRing,
    clock: () => EXAMPLE_CLOCK,
    randomBytes: counterBytes(),
    logger: silentLogger,
  });
  const tools = new ToolRegistry(subject.kind === 'tool' ? [subject.definition] : []);
  // A tool that may run as a task is shown as a client of the tasks extension would see it.
  const tasks =
    subject.kind === 'tool' && subject.definition.task !== undefined
      ? exampleTasks(engine, tools, () => EXAMPLE_CLOCK, counterBytes())
      : undefined;
  const capabilities = tasks
    ? { ...EXAMPLE_CAPABILITIES, extensions: { [TASKS_EXTENSION]: {} } }
    : EXAMPLE_CAPABILITIES;
  try {
    return await converse(flow, subject, tools, engine, keyRing, capabilities, tasks, options);
  } finally {
    await tasks?.close();
  }
}

async function converse(
  flow: DocumentedFlow,
  subject: DocumentedFlow,
  tools: ToolRegistry,
  engine: FlowEngine,
  keyRing: KeyRing,
  capabilities: Record<string, unknown>,
  tasks: ReturnType<typeof exampleTasks> | undefined,
  options: ConversationOptions,
): Promise<Conversation> {
  const dispatcher = createMcpDispatcher({
    serverInfo: { name: 'baton', version: BATON_VERSION },
    ...(tasks ? { tasks: tasks.manager } : {}),
    tools,
    prompts: new PromptRegistry(subject.kind === 'prompt' ? [subject.definition] : []),
    resources: new ResourceRegistry(subject.kind === 'resource' ? [subject.definition] : []),
    engine,
    logger: silentLogger,
  });
  const answer = options.answer ?? defaultAnswers(flow);
  const maxRounds = options.maxRounds ?? 12;
  const asked = new Map<string, number>();
  const rounds: ConversationRound[] = [];
  let retry: Record<string, unknown> = {};
  let nextId = 1;
  const send = async (method: string, params: Record<string, unknown>) => {
    const request = {
      jsonrpc: '2.0' as const,
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          [META.protocolVersion]: EXAMPLE_PROTOCOL_VERSION,
          [META.clientCapabilities]: capabilities,
          [META.clientInfo]: { name: 'example-client', version: '1.0.0' },
        },
      },
    };
    const dispatched = await dispatcher.dispatch(request, {
      principal: ANONYMOUS,
      cancellation: options.signal ? Cancellation.following(options.signal) : new Cancellation(),
    });
    if (dispatched.type !== 'response') throw new Error(`the example of ${request.method} was cancelled`);
    return { request, response: dispatched.response };
  };
  for (let round = 1; round <= maxRounds; round++) {
    const { request, response } = await send(flowMethod(flow), { ...exampleParams(flow), ...retry });
    const result = 'result' in response ? (response.result as Record<string, unknown>) : undefined;
    if (result?.resultType === 'task' && tasks) {
      rounds.push({ request, response, waitingIn: [], answers: {} });
      const followed = await followTask({ taskId: String(result.taskId), send, store: tasks.store, answer, asked });
      return { rounds: forDisplay([...rounds, ...followed.rounds]), outcome: followed.outcome };
    }
    if (result?.resultType !== 'input_required') {
      rounds.push({ request, response, waitingIn: [], answers: {} });
      return { rounds: forDisplay(rounds), outcome: result ? 'complete' : 'error' };
    }
    const inputRequests = result.inputRequests as Record<string, InputRequest>;
    const answers: Record<string, unknown> = {};
    for (const [key, inputRequest] of Object.entries(inputRequests)) {
      const occurrence = asked.get(key) ?? 0;
      asked.set(key, occurrence + 1);
      answers[key] = answer(key, inputRequest, occurrence);
    }
    const opened = openState(result.requestState, keyRing, STATE_LENGTH_LIMIT);
    const waitingIn = leafPaths((opened?.snapshot as { value?: unknown } | undefined)?.value);
    rounds.push({ request, response, waitingIn, answers });
    retry = { inputResponses: answers, requestState: result.requestState };
  }
  return { rounds: forDisplay(rounds), outcome: 'unfinished' };
}

/** The rounds as shown: sealed states shortened (they differ with every byte of context), random ids replaced. */
function forDisplay(rounds: ConversationRound[]): ConversationRound[] {
  return scrubRandomIds(rounds).map((round) => {
    const request = { ...round.request, params: { ...round.request.params } };
    if (request.params.requestState !== undefined)
      request.params.requestState = shortenState(request.params.requestState);
    const response = structuredClone(round.response);
    if ('result' in response && response.result.requestState !== undefined) {
      response.result.requestState = shortenState(response.result.requestState);
    }
    return { ...round, request, response };
  });
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A URL elicitation's page reference (engine/page-reference.ts); it seals random ids, so it is shortened too. */
const PAGE_REF = /\bp1\.[A-Za-z0-9_-]{1,32}\.[A-Za-z0-9_-]{32,}/g;

/**
 * Replaces every random UUID with a fixed one, the same UUID always by the same stand-in, and
 * shortens page references like sealed states (their start is the counter-made nonce).
 */
export function scrubRandomIds<T>(value: T): T {
  const seen = new Map<string, string>();
  const text = JSON.stringify(value)
    .replace(UUID, (uuid) => {
      const key = uuid.toLowerCase();
      if (!seen.has(key)) seen.set(key, `00000000-0000-4000-8000-${String(seen.size + 1).padStart(12, '0')}`);
      return seen.get(key)!;
    })
    .replace(PAGE_REF, (ref) => String(shortenState(ref)));
  return JSON.parse(text) as T;
}

/** `b1.docs.AAECAwQFBgcI…`: enough of a sealed state to recognise it, not to be mistaken for one to copy. */
export function shortenState(state: unknown): unknown {
  return typeof state === 'string' && state.length > 24 ? `${state.slice(0, 24)}…` : state;
}
