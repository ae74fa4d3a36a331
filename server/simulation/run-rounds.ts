/**
 * The conversation runner: a client walking one flow through real rounds, the one loop behind the
 * docs' example runs, the test kit (`runFlow`, `walkPaths`) and `baton call`. It sends the flow's
 * first request; while the answer is `input_required` it asks the answer policy for every
 * question and sends the same request again with `inputResponses` and the `requestState` exactly
 * as it came (sealed: only the server reads it); a `resultType: "task"` answer is followed to its
 * end (follow-task.ts). What differs between the three callers is only how a request travels
 * (`send`) and who answers (`policy`).
 */
import type { InputRequest } from '../engine/index.js';
import type { AnswerPolicy } from './answer-policy.js';
import { followTask } from './follow-task.js';
import type { Exchange, Round, RoundsRun, Send } from './round-exchange.js';

/** Where the machine waits, when the sender can tell (the docs open the sealed state in process). */
export type WaitingIn = (at: { requestState: unknown } | { taskId: string }) => string[] | Promise<string[]>;

export interface RoundsObserver {
  /** `tools/call` answered with a task (the `CreateTaskResult`). */
  taskCreated?(task: Record<string, unknown>): void;
  /** Each `tasks/get` result. */
  taskPolled?(task: Record<string, unknown>): void;
  /**
   * The run gave up on the task and sent `tasks/cancel` (nobody else holds its id, so it would wait
   * for answers until its TTL): `why` is `'interrupted'` (the signal fired), `'timeout'`,
   * `'maxRounds'` (it kept asking), or what the answer policy or the sender threw; `response` is
   * what `tasks/cancel` got.
   */
  taskCancelled?(taskId: string, why: unknown, response: Exchange['response']): void;
}

export interface RunRoundsOptions {
  /** The flow's first request: `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** Its params (without `_meta`); every retry sends them again with the answers. */
  params: Record<string, unknown>;
  /**
   * Requests that carry the flow before the run counts as unfinished (default: no limit): each
   * request of a synchronous flow, and for a task its `tools/call` and each `tasks/update` (not
   * the polls). A task past it is cancelled.
   */
  maxRounds?: number;
  waitingIn?: WaitingIn;
  /** How long to wait before polling a task again when nothing was answered (default: `taskPollMs`). */
  pollMs?: (task: Record<string, unknown>) => number;
  /** Real time a task may run before the run gives up on it (default: no limit). */
  taskTimeoutMs?: number;
  /** Interrupts a task being followed: it is cancelled and the outcome is `interrupted`. */
  signal?: AbortSignal | undefined;
  observer?: RoundsObserver;
}

/** A server may suggest any interval (`pollIntervalMs`); the runner never polls faster than this by default. */
const MIN_POLL_MS = 100;

/** The task's suggested poll interval (1 s when it suggests none), at least `MIN_POLL_MS`. */
export function taskPollMs(task: Record<string, unknown>): number {
  return Math.max(MIN_POLL_MS, Number(task.pollIntervalMs) || 1000);
}

function asks(result: Record<string, unknown>): boolean {
  return result.resultType === 'input_required' || result.inputRequests !== undefined;
}

export async function runRounds(send: Send, policy: AnswerPolicy, options: RunRoundsOptions): Promise<RoundsRun> {
  const rounds: Round[] = [];
  // How often each question was asked, for the policy's `occurrence`; a task goes on counting.
  const asked = new Map<string, number>();
  const maxRounds = options.maxRounds ?? Infinity;
  let params = options.params;
  for (let round = 1; round <= maxRounds; round++) {
    if (options.signal?.aborted) return { rounds, outcome: 'interrupted' };
    const exchange = await send(options.method, params);
    const { response } = exchange;
    if (!('result' in response)) {
      rounds.push({ ...exchange, waitingIn: [], answers: {} });
      return { rounds, outcome: 'error', ending: { error: response.error } };
    }
    const result = response.result;
    if (result.resultType === 'task' && typeof result.taskId === 'string') {
      rounds.push({ ...exchange, waitingIn: [], answers: {} });
      options.observer?.taskCreated?.(result);
      const followed = await followTask({ send, policy, options, created: result, rounds, asked, round });
      return { rounds, ...followed, taskId: result.taskId };
    }
    if (!asks(result)) {
      rounds.push({ ...exchange, waitingIn: [], answers: {} });
      return { rounds, outcome: 'complete', ending: { result } };
    }
    const answers: Record<string, unknown> = {};
    for (const [key, request] of Object.entries((result.inputRequests ?? {}) as Record<string, InputRequest>)) {
      const occurrence = asked.get(key) ?? 0;
      asked.set(key, occurrence + 1);
      answers[key] = await policy(key, request, occurrence, {
        inputKey: key,
        in: { round },
        signal: options.signal,
      });
    }
    const waitingIn = (await options.waitingIn?.({ requestState: result.requestState })) ?? [];
    rounds.push({ ...exchange, waitingIn, answers });
    // requestState goes back exactly as it came: it is sealed, and only the server reads it.
    params = { ...options.params, inputResponses: answers, requestState: result.requestState };
  }
  return { rounds, outcome: 'unfinished' };
}
