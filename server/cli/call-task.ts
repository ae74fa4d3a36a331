/**
 * `baton call` following a task (the `io.modelcontextprotocol/tasks` extension, docs/tasks.md):
 * once `tools/call` answers `resultType: "task"`, it polls `tasks/get` at the `pollIntervalMs`
 * the server suggests, prints each change of status or `statusMessage` to stderr, asks each new
 * key of `inputRequests` once (keys are unique over a task's life, so a key answered is never
 * asked again) and sends the answers with `tasks/update`. An interrupt (Ctrl+C) while the task
 * runs, or at one of its prompts, sends `tasks/cancel` before the command ends with 130.
 */
import type { CallClient, JsonRpcAnswer } from './call-client.js';
import type { InputRequest } from './call-prompts.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** A server may suggest any interval; the command never polls faster than this. */
const MIN_POLL_MS = 100;

export interface TaskFollowing {
  client: CallClient;
  /** The `CreateTaskResult` tools/call answered. */
  created: Record<string, any>;
  /** The `inputResponses` value for one question (a prompt, or --answers); `signal` aborts a prompt. */
  answer(key: string, request: InputRequest, signal: AbortSignal): Promise<unknown>;
  stderr: NodeJS.WritableStream;
  /** Subscribes to interrupts (SIGINT); answers the unsubscribe. */
  onInterrupt?: (handler: () => void) => () => void;
}

/**
 * How a followed task ended: its final answer (as a tools/call would give it), cancelled by
 * someone else (`tasks/cancel` from another client), or interrupted here (and cancelled).
 */
export type TaskOutcome = { answer: JsonRpcAnswer } | { cancelled: true } | { interrupted: true };

class Interrupted extends Error {}

/** The result of a `tasks/*` exchange, or a thrown answer carrying its JSON-RPC error. */
class TaskExchangeFailed extends Error {
  constructor(readonly answer: JsonRpcAnswer) {
    super(answer.error?.message ?? 'no result');
  }
}

export async function followTask(options: TaskFollowing): Promise<TaskOutcome> {
  const { client, created, stderr } = options;
  const taskId = String(created.taskId);
  const abort = new AbortController();
  let interrupt!: () => void;
  let unsubscribe = () => {};
  const interrupted = new Promise<never>((_, reject) => {
    interrupt = () => {
      // A second Ctrl+C while tasks/cancel is under way gets the default: the process ends.
      unsubscribe();
      abort.abort();
      reject(new Interrupted());
    };
  });
  interrupted.catch(() => undefined);
  unsubscribe = options.onInterrupt?.(interrupt) ?? unsubscribe;
  /** Resolves `work`, or rejects with Interrupted as soon as an interrupt comes. */
  const race = <T>(work: Promise<T>): Promise<T> => Promise.race([work, interrupted]);

  const send = async (method: string, params: Record<string, unknown> = {}) => {
    const answer = await client.task(method, { taskId, ...params });
    if (answer.error || !answer.result) throw new TaskExchangeFailed(answer);
    return answer.result;
  };

  const pollMs = (task: Record<string, any>) => Math.max(MIN_POLL_MS, Number(task.pollIntervalMs) || 1000);
  let last = '';
  const show = (task: Record<string, any>) => {
    const line = `  [${task.status}]${task.statusMessage === undefined ? '' : ` ${task.statusMessage}`}`;
    if (line !== last) stderr.write(`${line}\n`);
    last = line;
  };

  stderr.write(`baton call: task ${taskId}, polling tasks/get every ${pollMs(created)} ms (Ctrl+C cancels the task)\n`);
  show(created);
  const answered = new Set<string>();
  let task = created;
  try {
    for (;;) {
      if (TERMINAL.has(task.status)) return outcome(task);
      const open = Object.entries<InputRequest>(task.status === 'input_required' ? (task.inputRequests ?? {}) : {});
      const fresh = open.filter(([key]) => !answered.has(key));
      if (fresh.length > 0) {
        const inputResponses: Record<string, unknown> = {};
        for (const [key, request] of fresh) {
          inputResponses[key] = await race(options.answer(key, request, abort.signal));
        }
        for (const key of fresh.map(([key]) => key)) answered.add(key);
        await race(send('tasks/update', { inputResponses }));
      } else {
        await race(sleep(pollMs(task), abort.signal));
      }
      task = await race(send('tasks/get'));
      show(task);
    }
  } catch (error) {
    if (error instanceof TaskExchangeFailed) return { answer: error.answer };
    const name = (error as Error)?.name;
    // @inquirer/prompts rejects with ExitPromptError on Ctrl+C at a prompt: that too stops the task.
    const byUser = error instanceof Interrupted || name === 'AbortPromptError' || name === 'ExitPromptError';
    // Nobody else holds the task id: a task this command gives up on (interrupted, or a question
    // --answers cannot answer) would wait for answers until its TTL, so it is cancelled.
    stderr.write(`baton call: ${byUser ? 'interrupted' : 'giving up'}, cancelling task ${taskId}\n`);
    const cancel = await client.task('tasks/cancel', { taskId }).catch((failure: unknown): JsonRpcAnswer => ({
      jsonrpc: '2.0',
      error: { code: -32603, message: String(failure) },
    }));
    stderr.write(
      cancel.error
        ? `baton call: tasks/cancel failed: error ${cancel.error.code}: ${cancel.error.message}\n`
        : `baton call: task ${taskId} cancelled\n`,
    );
    if (byUser) return { interrupted: true };
    throw error;
  } finally {
    unsubscribe();
  }
}

/** A terminal task as the tools/call answer it stands for (tasks.md: `result`, or `error` when failed). */
function outcome(task: Record<string, any>): TaskOutcome {
  if (task.status === 'completed') return { answer: { jsonrpc: '2.0', result: task.result ?? {} } };
  if (task.status === 'failed') {
    return { answer: { jsonrpc: '2.0', error: task.error ?? { code: -32603, message: 'The task failed.' } } };
  }
  return { cancelled: true };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
