/**
 * `subscriptions/listen` (spec, basic/patterns/subscriptions). Baton's prompts and resources are
 * fixed for the life of a deployment, and so are its tools unless they are live (`baton dev`
 * reloading them): a deploy that changes them reaches clients through the lists' ttlMs. With live
 * tools, `tools.listChanged` is advertised and `toolsListChanged` is honoured: each accepted
 * change sends `notifications/tools/list_changed`, and the stream stays open until the client
 * goes away. Without them no list notification can be honoured. Tasks can: with the tasks extension, `notifications.taskIds`
 * follows the caller's tasks, and each change sends `notifications/tasks` with the detailed task
 * (tasks.md, "Task Status Notifications"). The acknowledgment comes first, naming the agreed
 * subset; the stream then ends gracefully once nothing more can come (every followed task is
 * terminal, or nothing was agreed), so a client never holds a connection open for nothing.
 */
import { declaresTasks, isRecord, type TaskManager, type ToolListChanges } from '../../engine/index.js';
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

export function subscriptionsListenMethod(tasks?: TaskManager, toolChanges?: ToolListChanges): MethodSpec {
  return {
    async handle(context) {
      const { id, params, notify } = context;
      checkFilter(params.notifications);
      const subscription = { [META.subscriptionId]: id };
      const filter = (params.notifications ?? {}) as { taskIds?: string[]; toolsListChanged?: boolean };
      const tools = filter.toolsListChanged === true ? toolChanges : undefined;
      // Registered before the acknowledgment, so a change right after it is not missed.
      const stopTools = tools?.onChange(() =>
        notify({ method: 'notifications/tools/list_changed', params: { _meta: subscription } }),
      );
      try {
        if (filter.taskIds !== undefined) {
          // tasks.md: MUST refuse task notifications to a client that did not declare the extension.
          if (!tasks || !declaresTasks(context.meta.clientCapabilities)) {
            throw tasksRequired('task notifications are part of the tasks extension');
          }
          return await followTasks(context, tasks, filter.taskIds, subscription, tools !== undefined);
        }
        notify({
          method: 'notifications/subscriptions/acknowledged',
          params: { _meta: subscription, notifications: tools ? { toolsListChanged: true } : {} },
        });
        if (!tools) return { _meta: subscription };
        await untilAborted(context.cancellation.signal);
        return CANCELLED;
      } finally {
        stopTools?.();
      }
    },
  };
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Streams `notifications/tasks` for the caller's tasks among `taskIds` until nothing more can change. */
async function followTasks(
  context: MethodContext,
  tasks: TaskManager,
  taskIds: string[],
  subscription: Record<string, unknown>,
  toolsListChanged: boolean,
): Promise<MethodResult | typeof CANCELLED> {
  const { notify, cancellation, principal } = context;
  const signal = cancellation.signal;
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
      params: {
        _meta: subscription,
        notifications: { taskIds: followed, ...(toolsListChanged ? { toolsListChanged: true } : {}) },
      },
    });
    // The current state first: a change between the client's last poll and now is not missed.
    for (const taskId of followed) {
      const task = await tasks.get(taskId, principal.id);
      if (task) send(task, ['completed', 'failed', 'cancelled'].includes(task.status as string));
    }
    // Tool list changes have no end: listening for them keeps the stream open until the client leaves.
    if (toolsListChanged) await untilAborted(signal);
    else if (open.size > 0) await Promise.race([done, untilAborted(signal)]);
    return signal.aborted ? CANCELLED : { _meta: subscription };
  } finally {
    stop();
  }
}
