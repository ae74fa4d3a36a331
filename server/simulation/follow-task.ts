/**
 * Following a task to its end (the `io.modelcontextprotocol/tasks` extension, docs/tasks.md), as
 * a client of the extension does once `tools/call` answered `resultType: "task"`: poll `tasks/get`
 * (at once after creating or answering the task, else after the poll interval), answer each new
 * key of `inputRequests` once with `tasks/update` (keys are unique over a task's life, so a key
 * answered is never asked again), and stop at a terminal status. `maxRounds` bounds a task as it
 * bounds a synchronous flow: `tools/call` is the first round and each `tasks/update` another (polls
 * are not rounds), so a task that keeps asking (an answer the server keeps refusing) ends the run
 * `unfinished` once questions come back after the last round, answered by the policy as a
 * synchronous flow's last questions are, and not sent. A run that gives up on the task
 * (interrupted, out of time, out of rounds, or its answer policy failed) cancels it first: nobody
 * else holds the task id, and the task would otherwise wait for answers until its TTL.
 */
import { isTerminalStatus, type InputRequest } from '../engine/index.js';
import type { AnswerPolicy } from './answer-policy.js';
import type { Round, RoundsRun, RunEnding, Send } from './round-exchange.js';
import { taskPollMs, type RunRoundsOptions } from './run-rounds.js';

interface Following {
  send: Send;
  policy: AnswerPolicy;
  options: RunRoundsOptions;
  /** The `CreateTaskResult` tools/call answered. */
  created: Record<string, unknown>;
  /** The run's rounds so far; the task's exchanges are added to them. */
  rounds: Round[];
  /** How often each question was asked, by question key. */
  asked: Map<string, number>;
  /** The round of the `tools/call` that created the task (1 unless a synchronous round came first). */
  round: number;
}

class Interrupted extends Error {}

/** A terminal task as the tools/call answer it stands for (tasks.md: `result`, or `error` when failed). */
function endingOf(task: Record<string, unknown>): RunEnding {
  if (task.status === 'completed') return { result: (task.result as Record<string, unknown> | undefined) ?? {} };
  if (task.status === 'failed') {
    return {
      error: (task.error as { code: number; message: string }) ?? { code: -32603, message: 'The task failed.' },
    };
  }
  return { cancelled: true };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

export async function followTask(following: Following): Promise<Pick<RoundsRun, 'outcome' | 'ending'>> {
  const { send, policy, options, created, rounds, asked } = following;
  const maxRounds = options.maxRounds ?? Infinity;
  let round = following.round;
  const taskId = String(created.taskId);
  const { signal } = options;
  const deadline = options.taskTimeoutMs === undefined ? Infinity : Date.now() + options.taskTimeoutMs;
  const pollMs = options.pollMs ?? taskPollMs;
  /** Resolves `work`, or rejects with Interrupted as soon as the signal fires. */
  const race = <T>(work: Promise<T> | T): Promise<T> => {
    if (!signal) return Promise.resolve(work);
    if (signal.aborted) return Promise.reject(new Interrupted());
    let stop!: () => void;
    const interrupted = new Promise<never>((_, reject) => {
      stop = () => reject(new Interrupted());
      signal.addEventListener('abort', stop, { once: true });
    });
    return Promise.race([work, interrupted]).finally(() => signal.removeEventListener('abort', stop));
  };

  const answered = new Set<string>();
  let task = created;
  // After a request that changed the task (creating it, answering it) the next poll goes at once.
  let pollAtOnce = true;
  let updates = 0;
  try {
    for (;;) {
      if (isTerminalStatus(task.status)) return { outcome: 'complete', ending: endingOf(task) };
      if (Date.now() >= deadline) {
        await cancel(send, taskId, 'timeout', options);
        return { outcome: 'unfinished' };
      }
      const open = task.status === 'input_required' ? (task.inputRequests ?? {}) : {};
      const fresh = Object.entries(open as Record<string, InputRequest>).filter(([key]) => !answered.has(key));
      if (fresh.length > 0) {
        const answers: Record<string, unknown> = {};
        const where = { taskId, update: ++updates };
        for (const [key, request] of fresh) {
          // Keys are unique over a task's life (`approve`, `approve.2`, …); the policy knows the question.
          const question = key.replace(/\.\d+$/, '');
          const occurrence = asked.get(question) ?? 0;
          asked.set(question, occurrence + 1);
          answers[key] = await race(policy(question, request, occurrence, { inputKey: key, in: where, signal }));
        }
        for (const [key] of fresh) answered.add(key);
        // The answers belong to the exchange that showed the questions.
        rounds[rounds.length - 1]!.answers = answers;
        if (round >= maxRounds) {
          await cancel(send, taskId, 'maxRounds', options);
          return { outcome: 'unfinished' };
        }
        round += 1;
        const update = await race(send('tasks/update', { taskId, inputResponses: answers }));
        rounds.push({ ...update, waitingIn: [], answers: {} });
        if (!('result' in update.response)) return { outcome: 'error', ending: { error: update.response.error } };
        pollAtOnce = true;
      }
      if (!pollAtOnce) await race(sleep(pollMs(task), signal));
      pollAtOnce = false;
      const polled = await race(send('tasks/get', { taskId }));
      if (!('result' in polled.response)) {
        rounds.push({ ...polled, waitingIn: [], answers: {} });
        return { outcome: 'error', ending: { error: polled.response.error } };
      }
      task = polled.response.result;
      const waitingIn = task.status === 'input_required' ? ((await options.waitingIn?.({ taskId })) ?? []) : [];
      rounds.push({ ...polled, waitingIn, answers: {} });
      options.observer?.taskPolled?.(task);
    }
  } catch (error) {
    const interrupted = error instanceof Interrupted || signal?.aborted === true;
    await cancel(send, taskId, interrupted ? 'interrupted' : error, options);
    if (interrupted) return { outcome: 'interrupted' };
    throw error;
  }
}

async function cancel(send: Send, taskId: string, why: unknown, options: RunRoundsOptions): Promise<void> {
  const { response } = await send('tasks/cancel', { taskId }).catch((failure: unknown) => ({
    response: { jsonrpc: '2.0' as const, error: { code: -32603, message: String(failure) } },
  }));
  options.observer?.taskCancelled?.(taskId, why, response);
}
