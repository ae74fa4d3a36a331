/**
 * `subscriptions/listen` (spec, basic/patterns/subscriptions). Baton's prompts and resources are
 * fixed for the life of a deployment, and so are its tools unless they are live (`baton dev`
 * reloading them): a deploy that changes them reaches clients through the lists' ttlMs. With live
 * tools, `tools.listChanged` is advertised and `toolsListChanged` is honoured: each accepted
 * change sends `notifications/tools/list_changed`. Without them no list notification can be
 * honoured. Tasks can: with the tasks extension, `notifications.taskIds` follows the caller's
 * tasks, and each change sends `notifications/tasks` with the detailed task (tasks.md, "Task
 * Status Notifications"). The acknowledgment comes first, naming the agreed subset; the stream
 * then ends gracefully once nothing more can come (every followed task is terminal, or nothing
 * was agreed), so a client never holds a connection open for nothing.
 *
 * A stream that stays open is long-lived: it takes a slot of the listen budget (per caller and
 * per instance) instead of the request gate, sends a keep-alive while idle, and ends gracefully
 * (the listen result, spec "Graceful Closure") after its maximum lifetime; the client reconnects,
 * and a reconnect gets the acknowledgment and each followed task's current state again.
 */
import { declaresTasks, isRecord, type TaskManager, type TaskView, type ToolListChanges } from '../../engine/index.js';
import { PreparedNotification } from '../prepared-notification.js';
import type { LongLivedBudget } from '../long-lived-budget.js';
import { CANCELLED, type MethodContext, type MethodResult, type MethodSpec } from '../method-context.js';
import { invalidParams, ProtocolError } from '../protocol-error.js';
import { META } from '../request-meta.js';
import { tasksRequired } from './tasks-methods.js';

export interface ListenOptions {
  budget: LongLivedBudget;
  /** An SSE comment this often while the stream is idle (25 s), so proxies keep it open. */
  keepAliveMs: number;
  /** A stream ends gracefully this long after it opened (1 h); the client reconnects. */
  maxLifetimeMs: number;
  /** Task ids one stream follows at most (64); the acknowledgment names those agreed. */
  maxTaskIds: number;
}

export const DEFAULT_LISTEN_OPTIONS = { keepAliveMs: 25_000, maxLifetimeMs: 60 * 60 * 1000, maxTaskIds: 64 };

const FILTER_FIELDS: Record<string, 'boolean' | 'strings'> = {
  toolsListChanged: 'boolean',
  promptsListChanged: 'boolean',
  resourcesListChanged: 'boolean',
  resourceSubscriptions: 'strings',
  taskIds: 'strings',
};

/**
 * The task ids a listen follows: distinct, in the client's order, at most `max`. Taken before
 * anything is looked up, by the scope check (scoped-methods.ts) and the stream alike, so a list of
 * one id repeated thousands of times costs one look-up, not thousands.
 */
export function followedTaskIds(taskIds: readonly unknown[], max: number): string[] {
  const distinct = new Set<string>();
  for (const id of taskIds) {
    if (distinct.size >= max) break;
    if (typeof id === 'string') distinct.add(id);
  }
  return [...distinct];
}

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

export function subscriptionsListenMethod(
  options: ListenOptions,
  tasks?: TaskManager,
  toolChanges?: ToolListChanges,
): MethodSpec {
  return {
    async handle(context) {
      const { id, params, notify } = context;
      checkFilter(params.notifications);
      const subscription = { [META.subscriptionId]: id };
      const filter = (params.notifications ?? {}) as { taskIds?: string[]; toolsListChanged?: boolean };
      const tools = filter.toolsListChanged === true ? toolChanges : undefined;
      // tasks.md: MUST refuse task notifications to a client that did not declare the extension.
      if (filter.taskIds !== undefined && (!tasks || !declaresTasks(context.meta.clientCapabilities))) {
        throw tasksRequired('task notifications are part of the tasks extension');
      }
      if (!tools && filter.taskIds === undefined) {
        notify({
          method: 'notifications/subscriptions/acknowledged',
          params: { _meta: subscription, notifications: {} },
        });
        return { _meta: subscription };
      }
      // Refused before the acknowledgment, so a refusal is a plain error response.
      const slot = options.budget.acquire('listen_streams', context.principal);
      if (slot instanceof ProtocolError) throw slot;
      context.leaveRequestGate?.();
      const open = new OpenStream(context, options);
      // Registered before the acknowledgment, so a change right after it is not missed.
      const stopTools = tools?.onChange(() =>
        notify({ method: 'notifications/tools/list_changed', params: { _meta: subscription } }),
      );
      try {
        if (filter.taskIds !== undefined) {
          return await followTasks(context, tasks!, filter.taskIds, subscription, tools !== undefined, open, options);
        }
        notify({
          method: 'notifications/subscriptions/acknowledged',
          params: { _meta: subscription, notifications: { toolsListChanged: true } },
        });
        // Tool list changes have no end: the stream stays until the client leaves or it ages out.
        await open.ended();
        return context.cancellation.signal.aborted ? CANCELLED : { _meta: subscription };
      } finally {
        stopTools?.();
        open.close();
        slot();
      }
    },
  };
}

/** The open stream's clock: its keep-alive, and the end of its lifetime or of the client. */
class OpenStream {
  readonly #keepAlive: NodeJS.Timeout;
  readonly #ended: Promise<void>;
  #endTimer: NodeJS.Timeout | undefined;

  constructor(context: MethodContext, options: ListenOptions) {
    this.#keepAlive = setInterval(() => context.keepAlive?.(), options.keepAliveMs);
    this.#keepAlive.unref();
    const signal = context.cancellation.signal;
    this.#ended = new Promise((resolve) => {
      if (signal.aborted) return resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
      this.#endTimer = setTimeout(resolve, options.maxLifetimeMs);
      this.#endTimer.unref();
    });
  }

  /** Resolves when the client goes away or the stream reaches its maximum lifetime. */
  ended(): Promise<void> {
    return this.#ended;
  }

  close(): void {
    clearInterval(this.#keepAlive);
    clearTimeout(this.#endTimer);
  }
}

/** Streams `notifications/tasks` for the caller's tasks among `taskIds` until nothing more can change. */
async function followTasks(
  context: MethodContext,
  tasks: TaskManager,
  taskIds: string[],
  subscription: Record<string, unknown>,
  toolsListChanged: boolean,
  stream: OpenStream,
  options: ListenOptions,
): Promise<MethodResult | typeof CANCELLED> {
  const { notify, cancellation, principal } = context;
  const signal = cancellation.signal;
  const open = new Set<string>();
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => (finished = resolve));
  // Every listener of a change gets the same serialized task (task-followers.ts); only `_meta` is its own.
  const send = (view: TaskView) => {
    const taskId = view.task.taskId as string;
    if (!open.has(taskId)) return;
    notify(new PreparedNotification('notifications/tasks', subscription, view));
    if (view.terminal) open.delete(taskId);
    if (open.size === 0) finished();
  };
  // At most maxTaskIds distinct ids are looked up and followed; the acknowledgment names them.
  const { followed, stop } = await tasks.follow(followedTaskIds(taskIds, options.maxTaskIds), principal.id, send);
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
      const view = await tasks.view(taskId, principal.id);
      if (view) send(view);
    }
    // Tool list changes have no end: listening for them keeps the stream open until it ends.
    if (toolsListChanged) await stream.ended();
    else if (open.size > 0) await Promise.race([done, stream.ended()]);
    return signal.aborted ? CANCELLED : { _meta: subscription };
  } finally {
    stop();
  }
}
