/**
 * What `baton call` says while the conversation runner follows a task (server/simulation,
 * follow-task.ts; the `io.modelcontextprotocol/tasks` extension, docs/tasks.md): the task id and
 * poll interval, each change of status or `statusMessage` on stderr, and the `tasks/cancel` it
 * sends when it gives up. While the task runs, an interrupt (Ctrl+C) aborts the run: the runner
 * cancels the task before the command ends with 130.
 */
import { taskPollMs, type RoundsObserver } from '../simulation/index.js';

export interface TaskReporting {
  stderr: NodeJS.WritableStream;
  /** Subscribes to interrupts (SIGINT); answers the unsubscribe. */
  onInterrupt?: (handler: () => void) => () => void;
}

/** Prompt errors of @inquirer/prompts when the user stops a prompt (Ctrl+C at it, or an abort). */
export function stoppedByUser(why: unknown): boolean {
  const name = (why as Error | undefined)?.name;
  return why === 'interrupted' || name === 'AbortPromptError' || name === 'ExitPromptError';
}

/**
 * The runner's observer for one call, and the signal that interrupts it. Interrupts are listened
 * to only once a task runs; `close` stops listening.
 */
export function taskReporter(options: TaskReporting): {
  observer: RoundsObserver;
  signal: AbortSignal;
  close(): void;
} {
  const { stderr } = options;
  const interrupt = new AbortController();
  let unsubscribe = () => {};
  let last = '';
  const show = (task: Record<string, unknown>) => {
    const line = `  [${String(task.status)}]${task.statusMessage === undefined ? '' : ` ${String(task.statusMessage)}`}`;
    if (line !== last) stderr.write(`${line}\n`);
    last = line;
  };
  const observer: RoundsObserver = {
    taskCreated(task) {
      stderr.write(
        `baton call: task ${String(task.taskId)}, polling tasks/get every ${taskPollMs(task)} ms (Ctrl+C cancels the task)\n`,
      );
      show(task);
      unsubscribe =
        options.onInterrupt?.(() => {
          // A second Ctrl+C while tasks/cancel is under way gets the default: the process ends.
          unsubscribe();
          interrupt.abort();
        }) ?? unsubscribe;
    },
    taskPolled: show,
    taskCancelled(taskId, why, response) {
      stderr.write(`baton call: ${stoppedByUser(why) ? 'interrupted' : 'giving up'}, cancelling task ${taskId}\n`);
      stderr.write(
        'error' in response
          ? `baton call: tasks/cancel failed: error ${response.error.code}: ${response.error.message}\n`
          : `baton call: task ${taskId} cancelled\n`,
      );
    },
  };
  return { observer, signal: interrupt.signal, close: () => unsubscribe() };
}
