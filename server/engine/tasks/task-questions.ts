/**
 * A task's questions between the record and the round kernel: the answers a step feeds in (by
 * question key, with the schema each was asked with), and the questions it stops at, each under
 * a wire key unique over the task's life (tasks.md, MUST).
 */
import type { InputRequest } from '../mcp-shapes.js';
import type { AskedQuestion, TaskRecord } from './task-record.js';

export interface StepAnswers {
  /** Question keys answered, in the order they were asked. */
  asked: string[];
  responses: Record<string, unknown>;
  askedSchemas: Record<string, object | undefined>;
}

/** Every answer the task collected, keyed by the question it answers. */
export function answersOf(record: TaskRecord): StepAnswers {
  const answers: StepAnswers = { asked: [], responses: {}, askedSchemas: {} };
  for (const [wireKey, { questionKey, request }] of Object.entries(record.asked)) {
    if (!Object.hasOwn(record.answers, wireKey)) continue;
    answers.asked.push(questionKey);
    answers.responses[questionKey] = record.answers[wireKey];
    answers.askedSchemas[questionKey] = request.params?.requestedSchema as object | undefined;
  }
  return answers;
}

export interface StepQuestions {
  inputRequests: Record<string, InputRequest>;
  keys: string[];
  retryReasons: Record<string, string>;
}

/**
 * The questions a step stops at, by wire key: a question still waiting for its first answer
 * keeps its key; one asked again (answered, re-asked after a rejected answer, or entered anew)
 * gets `<key>.<n>`. Counts how often each question was asked in `askCounts`. A question asked anew
 * is stamped `askedAt: now` (a kept one keeps its first time), for the console's timeline.
 */
export function wireQuestions(
  record: TaskRecord,
  questions: StepQuestions,
  askCounts: Record<string, number>,
  now?: number,
): Record<string, AskedQuestion> {
  const unanswered = new Map<string, string>();
  for (const [wireKey, q] of Object.entries(record.asked)) {
    if (!Object.hasOwn(record.answers, wireKey)) unanswered.set(q.questionKey, wireKey);
  }
  const asked: Record<string, AskedQuestion> = {};
  for (const key of questions.keys) {
    const kept = questions.retryReasons[key] === undefined ? unanswered.get(key) : undefined;
    if (kept) {
      asked[kept] = record.asked[kept]!;
      continue;
    }
    const count = (askCounts[key] ?? 0) + 1;
    askCounts[key] = count;
    asked[count === 1 ? key : `${key}.${count}`] = {
      questionKey: key,
      request: questions.inputRequests[key]!,
      ...(now === undefined ? {} : { askedAt: now }),
    };
  }
  return asked;
}
