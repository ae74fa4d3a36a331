/**
 * Who answers a simulated conversation's questions: an answer policy is asked once per question
 * per time it is asked, and gives the `inputResponses` value (or a promise of it: a prompt in a
 * terminal). The docs answer from the tool's `exampleAnswers`, the test kit from a test's answers,
 * `baton call` from `--answers` or the person at the terminal.
 */
import type { InputRequest } from '../engine/index.js';
import { exampleAnswer } from './example-answers.js';
import type { SimulatedFlow } from './simulated-flow.js';

/** Where a question was asked. */
export interface AskedQuestion {
  /**
   * The key as `inputRequests` named it. In a flow it is the question's key; inside a task, keys
   * are unique over the task's life, so a question asked again comes as `approve.2`, `approve.3`, …
   */
  inputKey: string;
  /**
   * A round of the synchronous flow, or the task the flow became and the `tasks/update` the answer
   * goes with (both 1-based): answers with the same `in` are sent together.
   */
  in: { round: number } | { taskId: string; update: number };
  /** Aborted when the run is interrupted: a prompt should stop. */
  signal?: AbortSignal | undefined;
}

/**
 * Chooses the answer to one question. `key` is the question's key (`approve`, also for
 * `approve.2`), `occurrence` counts how often that question was asked before (0-based).
 */
export type AnswerPolicy = (key: string, request: InputRequest, occurrence: number, asked: AskedQuestion) => unknown;

/**
 * Answers by question key, as the client sends them in `inputResponses` (`{ action: 'accept',
 * content }`, `{ action: 'decline' }`, a sampling result…); a list answers the question each time
 * it is asked.
 */
export type Answers = Record<string, unknown>;

/** Answers by key first (a list: one per time asked), then `fallback`. */
export function answersFirst(answers: Answers, fallback: AnswerPolicy): AnswerPolicy {
  return (key, request, occurrence, asked) => {
    if (!(key in answers)) return fallback(key, request, occurrence, asked);
    const given = answers[key];
    if (!Array.isArray(given)) return given;
    return occurrence < given.length ? given[occurrence] : fallback(key, request, occurrence, asked);
  };
}

/**
 * The tool's own `exampleAnswers` first (a list: one per time asked, the last one repeated), then
 * answers made from each question (example-answers.ts).
 */
export function defaultAnswers(flow: SimulatedFlow): AnswerPolicy {
  const given = flow.kind === 'tool' ? (flow.definition.exampleAnswers ?? {}) : {};
  return (key, request, occurrence) => {
    if (!(key in given)) return exampleAnswer(request);
    const answer = given[key];
    return Array.isArray(answer) ? answer[Math.min(occurrence, answer.length - 1)] : answer;
  };
}
