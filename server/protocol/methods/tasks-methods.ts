/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` (the `io.modelcontextprotocol/tasks` extension,
 * tasks.md). Each is refused with -32021 unless this request declares the extension, and answers
 * -32602 for a task that does not exist for this caller: unknown, expired, or another principal's,
 * which must look exactly alike (tasks.md, "Security Considerations").
 */
import { isRecord, TASKS_EXTENSION, type TaskManager } from '../../engine/index.js';
import { ErrorCode } from '../error-catalogue.js';
import type { MethodContext, MethodSpec } from '../method-context.js';
import { invalidParams, ProtocolError } from '../protocol-error.js';
import { declaresTasks } from '../../engine/index.js';

/** -32021 naming the extension (tasks.md: MUST, with `requiredCapabilities.extensions`). */
export function tasksRequired(why: string): ProtocolError {
  return new ProtocolError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: extensions["${TASKS_EXTENSION}"] (${why})`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

const notFound = () => invalidParams('Failed to retrieve task: Task not found');

function taskIdOf(context: MethodContext): string {
  if (!declaresTasks(context.meta.clientCapabilities)) {
    throw tasksRequired(`${context.method} is part of the tasks extension`);
  }
  const { taskId } = context.params;
  if (typeof taskId !== 'string') throw invalidParams('Invalid params: taskId must be a string');
  return taskId;
}

export function tasksGetMethod(tasks: TaskManager): MethodSpec {
  return {
    async handle(context) {
      const task = await tasks.get(taskIdOf(context), context.principal.id);
      if (!task) throw notFound();
      return { ...task };
    },
  };
}

export function tasksUpdateMethod(tasks: TaskManager): MethodSpec {
  return {
    async handle(context) {
      const taskId = taskIdOf(context);
      const { inputResponses } = context.params;
      if (!isRecord(inputResponses)) {
        throw invalidParams('Invalid params: inputResponses must be an object keyed by inputRequests keys');
      }
      if (!(await tasks.update(taskId, context.principal.id, inputResponses))) throw notFound();
      // An empty acknowledgement; the task's status follows eventually (tasks.md, tasks/update).
      return {};
    },
  };
}

export function tasksCancelMethod(tasks: TaskManager): MethodSpec {
  return {
    async handle(context) {
      if (!(await tasks.cancel(taskIdOf(context), context.principal.id))) throw notFound();
      return {};
    },
  };
}
