/** Helpers for tests of the tasks extension over real HTTP. */
import { expect } from 'chai';
import { isTerminalStatus, TASKS_EXTENSION } from '../../server/engine/index.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { callTool, requestMeta, rpc, type RawResponse } from './mcp-http.js';
import { sseMessages } from './sse-events.js';

/** A client that takes tasks and can answer forms. */
export const TASK_CLIENT = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };

export type RpcOptions = Parameters<typeof rpc>[3];

/** The result of a successful response, failing the test with the body otherwise. */
export function resultOf(response: RawResponse): any {
  expect(response.status, response.text).to.equal(200);
  expect(response.body?.error, response.text).to.equal(undefined);
  return response.body.result;
}

export async function taskRpc(url: string, method: string, params: Record<string, unknown>, options: RpcOptions = {}) {
  return rpc(url, method, params, { capabilities: TASK_CLIENT, ...options });
}

export async function getTask(url: string, taskId: string, options: RpcOptions = {}): Promise<any> {
  return resultOf(await taskRpc(url, 'tasks/get', { taskId }, options));
}

/** Polls tasks/get until `done` holds for the task (or a terminal status), within `timeoutMs`. */
export async function waitForTask(
  url: string,
  taskId: string,
  done: (task: any) => boolean,
  options: RpcOptions & { timeoutMs?: number } = {},
): Promise<any> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const task = await getTask(url, taskId, options);
    if (done(task) || isTerminalStatus(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status} after the timeout`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const isStatus = (status: string) => (task: any) => task.status === status;

/** Opens `subscriptions/listen` for task notifications on `url` (an SSE response, or an error). */
export function listenToTasks(
  url: string,
  taskIds: string[],
  options: { id?: string; capabilities?: Record<string, unknown>; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    ...(options.signal ? { signal: options.signal } : {}),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL_VERSION,
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: options.id ?? 'listen-1',
      method: 'subscriptions/listen',
      params: { notifications: { taskIds }, _meta: requestMeta(options.capabilities ?? TASK_CLIENT) },
    }),
  });
}

/**
 * The task notifications `url` streams for `taskIds` once the listen is acknowledged and `act` has
 * run (moving a clock, stopping an instance, …), until the stream ends (every task terminal).
 */
export async function notificationsAfter(url: string, taskIds: string[], act: () => unknown): Promise<any[]> {
  const messages = sseMessages(await listenToTasks(url, taskIds))[Symbol.asyncIterator]();
  expect((await messages.next()).value?.method).to.equal('notifications/subscriptions/acknowledged');
  await act();
  const notes: any[] = [];
  for (let next = await messages.next(); !next.done; next = await messages.next()) {
    if (next.value.method === 'notifications/tasks') notes.push(next.value.params);
  }
  return notes;
}

/** `tools/call` of `tool` by a client that takes tasks: the created task (`taskId`, `ttlMs`, …). */
export async function createTask(url: string, tool: string, args: Record<string, unknown>): Promise<any> {
  return resultOf(await callTool(url, tool, args, {}, { capabilities: TASK_CLIENT }));
}
