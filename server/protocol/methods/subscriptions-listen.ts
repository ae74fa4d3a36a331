/**
 * `subscriptions/listen` (spec, basic/patterns/subscriptions). Baton's tools, prompts and
 * resources are fixed for the life of a deployment (no listChanged or subscribe capability is
 * advertised; a deploy that changes them reaches clients through the lists' ttlMs), so no list
 * notification can be honoured. Tasks can: with the tasks extension, `notifications.taskIds`
 * follows the caller's tasks, and each change sends `notifications/tasks` with the detailed task
 * (tasks.md, "Task Status Notifications"). The acknowledgment comes first, naming the agreed
 * subset; the stream then ends gracefully once nothing more can come (every followed task is
 * terminal, or nothing was agreed), so a client never holds a connection open for nothing.
 */
import { declaresTasks, isRecord, type TaskManager } from '../../engine/index.js';
import { CANCELLED, type MethodContext, type MethodResult, type MethodSpec } from '../method-context.js';
import { invalidParams } from '../protocol-error.js';
import { META } from '../request-meta.js';
import { tasksRequired } from './tasks-methods.js';

const FILTER_FIELDS: Record<string, 'boolean' | 'strings'> = {
  toolsListChanged: 'boolean',
  promptsListChanged: 'boolean',
  resourcesListChanged: 'boolean',
  resourceSubscriptions: 'strings',
  taskIds: 'strings',
};

function checkFilter(filter: unknown): void {
  if (filter === undefined) return;
  if (!isRecord(filter)) throw invalidParams('Invalid params: notifications must be an object');
  for (const [field, kind] of Object.entries(FILTER_FIELDS)) {
    const value = filter[field];
    if (value === undefined) continue;
    const ok =
      kind === 'boolean'
        ? typeof value === 'boolean'
        : Array.isArray(value) && value.every((uri) => typeof uri === 'string');
    if (!ok)
      throw invalidParams(
        `Invalid params: notifications.${field} must be ${kind === 'boolean' ? 'a boolean' : 'an array of strings'}`,
      );
  }
}

export function subscriptionsListenMethod(tasks?: TaskManager): MethodSpec {
  return {
    async handle(context) {
      const { id, params, notify } = context;
      checkFilter(params.notifications);
      const subscription = { [META.subscriptionId]: id };
      const taskIds = (params.notifications as { taskIds?: string[] } | undefined)?.taskIds;
      if (taskIds !== undefined) {
        // tasks.md: MUST refuse task notifications to a client that did not declare the extension.
        if (!tasks || !declaresTasks(context.meta.clientCapabilities)) {
          throw tasksRequired('task notifications are part of the tasks extension');
        }
        return followTasks(context, tasks, taskIds, subscription);
      }
      notify({
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: subscription, notifications: {} },
      });
      return { _meta: subscription };
    },
  };
}

/** Streams `notifications/tasks` for the caller's tasks among `taskIds` until nothing more can change. */
async function followTasks(
  context: MethodContext,
  tasks: TaskManager,
  taskIds: string[],
  subscription: Record<string, unknown>,
): Promise<MethodResult | typeof CANCELLED> {
  const { notify, signal, principal } = context;
  const open = new Set<string>();
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => (finished = resolve));
  const send = (task: Record<string, unknown>, terminal: boolean) => {
    if (!open.has(task.taskId as string)) return;
    notify({ method: 'notifications/tasks', params: { ...task, _meta: subscription } });
    if (terminal) open.delete(task.taskId as string);
    if (open.size === 0) finished();
  };
  const { followed, stop } = await tasks.follow(taskIds, principal.id, send);
  try {
    for (const taskId of followed) open.add(taskId);
    notify({
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: subscription, notifications: { taskIds: followed } },
    });
    // The current state first: a change between the client's last poll and now is not missed.
    for (const taskId of followed) {
      const task = await tasks.get(taskId, principal.id);
      if (task) send(task, ['completed', 'failed', 'cancelled'].includes(task.status as string));
    }
    if (open.size > 0) {
      const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      await Promise.race([done, aborted]);
    }
    return signal.aborted ? CANCELLED : { _meta: subscription };
  } finally {
    stop();
  }
}
