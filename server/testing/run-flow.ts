/**
 * `runFlow`: a tool run in process through real rounds, as a client would drive it: the same
 * dispatcher and flow engine the server uses, every `requestState` sealed and opened again, and a
 * tool with `task` run as a task to its end (questions inside it answered with `tasks/update`).
 * It is the docs' example runner (docs-site/conversation.ts) with the test's answers.
 */
import type { AnyActorLogic } from 'xstate';
import type { InputRequest, ToolDefinition } from '../engine/index.js';
import {
  defaultAnswers,
  runConversation,
  type AnswerPolicy,
  type ConversationRound,
} from '../docs-site/conversation.js';

/**
 * An answer as the client sends it in `inputResponses` (`{ action: 'accept', content }`,
 * `{ action: 'decline' }`, a sampling result…); a list answers the question each time it is asked.
 */
export type Answers = Record<string, unknown>;

export const accept = (content?: Record<string, unknown>) =>
  content === undefined ? { action: 'accept' as const } : { action: 'accept' as const, content };
export const decline = () => ({ action: 'decline' as const });
export const cancel = () => ({ action: 'cancel' as const });

export interface RunFlowOptions {
  /** Stand-ins for invoked actors, by name, over the tool's `exampleActors`. */
  actors?: Record<string, AnyActorLogic>;
  /** Rounds before the run counts as a loop (default 20). */
  maxRounds?: number;
  signal?: AbortSignal;
}

export interface FlowRun {
  /** `complete`: a result; `error`: a JSON-RPC error; `unfinished`: still asking after `maxRounds`. */
  outcome: 'complete' | 'error' | 'unfinished';
  /** The tool result (`content`, `structuredContent`, `isError`), when the run completed. */
  result?: Record<string, unknown>;
  /** The JSON-RPC error, when the run ended with one. */
  error?: { code: number; message: string; data?: unknown };
  /** Every question key in the order asked (a key asked twice appears twice). */
  asked: string[];
  rounds: ConversationRound[];
}

/** Answers by key first (a list: one per time asked), then `fallback`. */
export function answersFirst(answers: Answers, fallback: AnswerPolicy): AnswerPolicy {
  return (key: string, request: InputRequest, occurrence: number) => {
    if (!(key in answers)) return fallback(key, request, occurrence);
    const given = answers[key];
    if (!Array.isArray(given)) return given;
    return occurrence < given.length ? given[occurrence] : fallback(key, request, occurrence);
  };
}

/** Answers by key first, then the tool's `exampleAnswers`, then answers made from each question's schema. */
export function answerPolicy(tool: ToolDefinition, answers: Answers = {}): AnswerPolicy {
  return answersFirst(answers, defaultAnswers({ kind: 'tool', definition: tool }));
}

/** The final task result, or the last round's result: what the client ends with. */
function finalResult(round: ConversationRound | undefined): Pick<FlowRun, 'result' | 'error'> {
  const response = round?.response;
  if (!response) return {};
  if ('error' in response) return { error: response.error as FlowRun['error'] };
  const result = response.result as Record<string, unknown>;
  // A task ends in `tasks/get`: `completed` carries the tool result, `failed` an error (tasks.md).
  if (typeof result.taskId === 'string' && typeof result.status === 'string') {
    if (result.status === 'completed') return { result: result.result as Record<string, unknown> };
    if (result.status === 'failed') return { error: result.error as FlowRun['error'] };
    return { error: { code: -32800, message: `task ${result.status}` } };
  }
  return { result };
}

export async function runFlow(
  tool: ToolDefinition,
  args?: Record<string, unknown>,
  answers?: Answers | AnswerPolicy,
  options: RunFlowOptions = {},
): Promise<FlowRun> {
  const asked: string[] = [];
  const policy = typeof answers === 'function' ? answers : answerPolicy(tool, answers);
  const definition = args === undefined ? tool : { ...tool, exampleArguments: args };
  const conversation = await runConversation(
    { kind: 'tool', definition },
    {
      answer: (key, request, occurrence) => {
        asked.push(key);
        return policy(key, request, occurrence);
      },
      maxRounds: options.maxRounds ?? 20,
      allowEffects: true,
      ...(options.actors ? { actors: options.actors } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  const last = conversation.rounds[conversation.rounds.length - 1];
  return {
    outcome: conversation.outcome,
    ...(conversation.outcome === 'unfinished' ? {} : finalResult(last)),
    asked,
    rounds: conversation.rounds,
  };
}
