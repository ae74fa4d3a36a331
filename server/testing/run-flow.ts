/**
 * `runFlow`: a tool run in process through real rounds, as a client would drive it: the same
 * dispatcher and flow engine the server uses, every `requestState` sealed and opened again, and a
 * tool with `task` run as a task to its end (questions inside it answered with `tasks/update`).
 * It is the simulation the docs run their examples on (server/simulation), with the test's
 * answers, and with effects allowed: the actors that run are the tool's own, except where its
 * `exampleActors` or the `actors` option give a stand-in.
 */
import type { AnyActorLogic, AnyStateMachine } from 'xstate';
import type { AnswersFor, ToolDefinition, UntypedResponses } from '../engine/index.js';
import {
  answersFirst,
  defaultAnswers,
  simulate,
  type AnswerPolicy,
  type Answers,
  type Round,
  type RoundsRun,
} from '../simulation/index.js';
import { refusalWatcher, type Refusal } from './refusal-reasons.js';

export type { Refusal } from './refusal-reasons.js';
export { answersFirst, type AnswerPolicy, type Answers } from '../simulation/index.js';

/**
 * An accept answer, with the form's content (`accept({ confirm: true })`), for `runFlow`'s answers.
 * Where the tool comes from `toolSetup`, the content is checked against the question's schema
 * where it is written (a misspelled field or a value outside an `enum` does not compile): its type
 * is taken from where the answer goes, never from the content itself. Kept in a variable first,
 * it is checked nowhere.
 */
export function accept(): { action: 'accept' };
// `any` only when nothing says where the answer goes (a variable): then nothing can check it.
export function accept<TContent extends Record<string, unknown> = any>(
  content: NoInfer<TContent>,
): { action: 'accept'; content: TContent };
export function accept(content?: Record<string, unknown>) {
  return content === undefined ? { action: 'accept' as const } : { action: 'accept' as const, content };
}
/** A decline answer, for `runFlow`'s answers. */
export const decline = () => ({ action: 'decline' as const });
/** A cancel answer (the user dismissed the question), for `runFlow`'s answers. */
export const cancel = () => ({ action: 'cancel' as const });

/** Stand-ins for actors, the round limit and an abort signal for one `runFlow`. */
export interface RunFlowOptions {
  /** Stand-ins for invoked actors, by name, over the tool's `exampleActors`. */
  actors?: Record<string, AnyActorLogic>;
  /**
   * Rounds before the run counts as a loop (default 20): requests of a synchronous flow, and for a
   * task its `tools/call` and each `tasks/update` answering it (polls are not rounds). A task still
   * asking after them is cancelled and the run is `unfinished`, with `refused` saying why when the
   * server kept refusing an answer. A task also stops after 30 s of real time, `unfinished`.
   */
  maxRounds?: number;
  signal?: AbortSignal;
}

/** What one `runFlow` came to: how it ended, the result or error, what it asked, every round. */
export interface FlowRun {
  /** `complete`: a result; `error`: a JSON-RPC error; `unfinished`: still asking after `maxRounds`. */
  outcome: Exclude<RoundsRun['outcome'], 'interrupted'>;
  /** The tool result (`content`, `structuredContent`, `isError`), when the run completed. */
  result?: Record<string, unknown>;
  /** The JSON-RPC error, when the run ended with one. */
  error?: { code: number; message: string; data?: unknown };
  /** Every question key in the order asked (a key asked twice appears twice). */
  asked: string[];
  /**
   * The last answer the server refused and asked again, with the reason it gave (a value its
   * schema does not allow, say): why a run that is `unfinished` kept being asked.
   */
  refused?: Refusal;
  /** Each request and response as on the wire (sealed states whole). */
  rounds: Round[];
}

/** Answers by key first, then the tool's `exampleAnswers`, then answers made from each question's schema. */
export function answerPolicy<TResponses = UntypedResponses>(
  tool: ToolDefinition<AnyStateMachine, TResponses>,
  answers: AnswersFor<TResponses> = {},
): AnswerPolicy {
  return answersFirst(answers as Answers, defaultAnswers({ kind: 'tool', definition: tool as ToolDefinition }));
}

/** What the client ends with: the tool result, or the error (a cancelled task's too). */
function finalResult(run: RoundsRun): Pick<FlowRun, 'result' | 'error'> {
  const ending = run.ending;
  if (!ending) return {};
  if ('result' in ending) return { result: ending.result };
  if ('error' in ending) return { error: ending.error };
  return { error: { code: -32800, message: 'task cancelled' } };
}

/**
 * One run of a tool as a client drives it, in process: real rounds with sealed `requestState`,
 * a task tool run as a task to its end. Questions are answered from `answers` (by key; a list
 * gives one answer per time asked), then the tool's `exampleAnswers`, then from their schemas.
 * Invoked actors run for real unless `options.actors` or the tool's `exampleActors` stand in.
 * @example
 * ```ts
 * import { expect } from 'chai';
 * import { accept, decline, runFlow } from 'baton-mcp/testing';
 * import { releaseTool } from './tools/release.js';
 *
 * const run = await runFlow(
 *   releaseTool,
 *   { service: 'billing', version: '2.4.0' },
 *   { window: accept({ window: 'tonight' }), confirm: decline() },
 * );
 * expect(run.outcome).to.equal('complete');
 * expect(run.asked).to.deep.equal(['window', 'confirm']);
 * ```
 */
export async function runFlow<TResponses = UntypedResponses>(
  tool: ToolDefinition<AnyStateMachine, TResponses>,
  args?: Record<string, unknown>,
  answers?: AnswersFor<TResponses> | AnswerPolicy,
  options: RunFlowOptions = {},
): Promise<FlowRun> {
  const asked: string[] = [];
  const refusals = refusalWatcher();
  const policy = typeof answers === 'function' ? answers : answerPolicy(tool, answers);
  const untyped = tool as ToolDefinition;
  const definition = args === undefined ? untyped : { ...untyped, exampleArguments: args };
  const run = await simulate(
    { kind: 'tool', definition },
    {
      answer: (key, request, occurrence, where) => {
        asked.push(key);
        refusals.see(key, request);
        return policy(key, request, occurrence, where);
      },
      maxRounds: options.maxRounds ?? 20,
      allowEffects: true,
      actors: options.actors,
      signal: options.signal,
    },
  );
  // No signal reaches the runner itself, so a run is never `interrupted`.
  const outcome = run.outcome === 'interrupted' ? 'unfinished' : run.outcome;
  const refused = refusals.last();
  return { outcome, ...finalResult(run), asked, ...(refused ? { refused } : {}), rounds: run.rounds };
}
