/**
 * The docs' example run of a tool that becomes a task: after `tools/call` answers with a task,
 * the example client polls `tasks/get` and answers questions with `tasks/update`, as a client of
 * the tasks extension would, until the task ends. Only polls that show a change are kept (the
 * number of polls depends on timing), and progress messages are left out of non-terminal tasks
 * (when one lands on a poll depends on timing too), so the committed pages do not churn. Task
 * timestamps come from the example's fixed clock; timers run on real time, so the example uses
 * short delays.
 */
import {
  MemoryTaskQueue,
  MemoryTaskStore,
  startTaskRuntime,
  silentLogger,
  type FlowEngine,
  type InputRequest,
  type ToolRegistry,
} from '../engine/index.js';
import { toProtocolError, type JsonRpcResponse } from '../protocol/index.js';
import type { AnswerPolicy, ConversationRound } from './conversation.js';

/** The example's own task store, queue and runner; `close` stops them once the example ends. */
export function exampleTasks(
  engine: FlowEngine,
  tools: ToolRegistry,
  clock: () => number,
  randomBytes: (length: number) => Uint8Array,
) {
  const store = new MemoryTaskStore({ clock });
  const runtime = startTaskRuntime({
    store,
    queue: new MemoryTaskQueue(),
    tools,
    versionOf: (machine) => engine.versionOf(machine),
    toWireError: (error) => toProtocolError(error).toJSON(),
    logger: silentLogger,
    clock,
    randomBytes,
  });
  return { manager: runtime.manager, store, close: runtime.close };
}

export interface FollowOptions {
  taskId: string;
  send: (
    method: string,
    params: Record<string, unknown>,
  ) => Promise<{ request: ConversationRound['request']; response: JsonRpcResponse }>;
  store: MemoryTaskStore;
  answer: AnswerPolicy;
  asked: Map<string, number>;
  /** How long the whole task may take (real time). */
  timeoutMs?: number;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

function leafPaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [`${prefix}${value}`];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, `${prefix}${key}.`));
}

/** What a poll shows that matters: the status and the questions. */
function signature(result: Record<string, unknown>): string {
  return `${String(result.status)} ${Object.keys((result.inputRequests as object | undefined) ?? {}).join(',')}`;
}

export async function followTask(
  options: FollowOptions,
): Promise<{ rounds: ConversationRound[]; outcome: 'complete' | 'error' | 'unfinished' }> {
  const rounds: ConversationRound[] = [];
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let last = '';
  while (Date.now() < deadline) {
    const { request, response } = await options.send('tasks/get', { taskId: options.taskId });
    if (!('result' in response)) {
      rounds.push({ request, response, waitingIn: [], answers: {} });
      return { rounds, outcome: 'error' };
    }
    const result = response.result as Record<string, unknown>;
    const shown = signature(result);
    if (shown === last) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    last = shown;
    if (!TERMINAL.has(String(result.status))) delete result.statusMessage;
    const record = await options.store.get(options.taskId);
    const waitingIn = result.status === 'input_required' ? leafPaths(record?.snapshot?.value) : [];
    const inputRequests = (result.inputRequests ?? {}) as Record<string, InputRequest>;
    const answers: Record<string, unknown> = {};
    for (const [key, inputRequest] of Object.entries(inputRequests)) {
      // Keys are unique over a task's life (`approve`, `approve.2`, …); the policy knows the question.
      const questionKey = key.replace(/\.\d+$/, '');
      const occurrence = options.asked.get(questionKey) ?? 0;
      options.asked.set(questionKey, occurrence + 1);
      answers[key] = options.answer(questionKey, inputRequest, occurrence);
    }
    rounds.push({ request, response, waitingIn, answers });
    if (TERMINAL.has(String(result.status))) return { rounds, outcome: 'complete' };
    if (Object.keys(answers).length > 0) {
      const update = await options.send('tasks/update', { taskId: options.taskId, inputResponses: answers });
      rounds.push({ ...update, waitingIn: [], answers: {} });
    }
  }
  return { rounds, outcome: 'unfinished' };
}
