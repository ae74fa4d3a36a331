/**
 * `baton tasks list | show <id> | cancel <id>`: every principal's tasks, read from the fleet's own
 * store (BATON_REDIS_URL, opened with the fleet's BATON_KEYS) through the TaskStore interface, as
 * the console reads them (engine/tasks/operator-tasks.ts). Whoever holds the store's URL and keys
 * is an operator already: nothing more is asked. A cancel takes the path tasks/cancel takes, so a
 * step running on any instance is stopped.
 *
 * Exit codes: 0 done, 1 no such task, 2 a usage error, 78 a setting missing (how to fix it).
 */
import { redisFromEnvironment } from '../settings/redis-settings.js';
import {
  ConfigurationError,
  OperatorTasks,
  parseKeyRing,
  RedisTaskStore,
  stderrLogger,
  TaskQueryError,
  type StuckTask,
  type TaskStore,
  type TaskSummary,
} from '../engine/index.js';
import { isTerminalStatus, type TaskStatus } from '../engine/tasks/index.js';
import { commandUsage, UsageError } from './command-line.js';
import { TASKS_SPEC } from './commands.js';
import { taskJson, taskTable, taskText } from './tasks-output.js';

export interface TasksCommandOptions {
  status?: string | undefined;
  tool?: string | undefined;
  stuck?: boolean | undefined;
  limit?: string | undefined;
  cursor?: string | undefined;
  json?: boolean | undefined;
}

export interface TasksIo {
  store: TaskStore;
  out: (text: string) => void;
  err: (text: string) => void;
  clock: () => number;
}

const STATUSES: readonly TaskStatus[] = ['working', 'input_required', 'completed', 'cancelled', 'failed'];
const DEFAULT_LIMIT = 100;
/** The store's page: `--limit` above it is read a page at a time. */
const PAGE = 50;

function usage(message: string): UsageError {
  return new UsageError(`baton tasks: ${message}`, commandUsage(TASKS_SPEC));
}

/** Checks the command line before anything connects: a usage error costs no connection. */
export function checkTasksArguments(action: string | undefined, id: string | undefined, values: TasksCommandOptions) {
  if (action !== 'list' && action !== 'show' && action !== 'cancel') {
    throw usage(`unknown action "${action ?? ''}": list, show <id> or cancel <id>`);
  }
  if (action === 'list' && id !== undefined) throw usage(`list takes no task id (got "${id}")`);
  if (action !== 'list' && id === undefined) throw usage(`${action} needs a task id`);
  const listOnly = ['status', 'tool', 'stuck', 'limit', 'cursor'] as const;
  const stray = listOnly.find((name) => values[name] !== undefined);
  if (action !== 'list' && stray) throw usage(`--${stray} is for list only`);
  for (const status of values.status?.split(',') ?? []) {
    if (!STATUSES.includes(status as TaskStatus)) throw usage(`--status takes ${STATUSES.join(', ')}; got "${status}"`);
  }
  if (values.limit !== undefined && !/^[1-9]\d{0,5}$/.test(values.limit)) {
    throw usage(`--limit takes a whole number from 1 to 999999; got "${values.limit}"`);
  }
}

/** The fleet's task store, from BATON_REDIS_URL and BATON_KEYS. */
export function storeFromEnvironment(env: NodeJS.ProcessEnv): RedisTaskStore {
  const redis = redisFromEnvironment(env);
  if (!redis) {
    throw new ConfigurationError(
      "baton tasks reads the fleet's task store: set BATON_REDIS_URL (redis://host:6379), or BATON_REDIS_SENTINELS or BATON_REDIS_CLUSTER as the fleet does. Tasks kept in one server's memory are seen on its console (baton serve --console, docs/console.md).",
    );
  }
  if (!env.BATON_KEYS) {
    throw new ConfigurationError(
      "baton tasks opens the fleet's sealed task records: set BATON_KEYS to the fleet's own keys.",
    );
  }
  return new RedisTaskStore({ redis, keyRing: parseKeyRing(env.BATON_KEYS), logger: stderrLogger });
}

export async function tasksCommand(
  values: TasksCommandOptions,
  action: string | undefined,
  id: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  checkTasksArguments(action, id, values);
  const store = storeFromEnvironment(env);
  try {
    return await runTasks(action!, id, values, {
      store,
      out: (text) => void process.stdout.write(text),
      err: (text) => void process.stderr.write(text),
      clock: Date.now,
    });
  } finally {
    await store.close();
  }
}

/** The command against a store (the tests give a memory one). */
export async function runTasks(
  action: string,
  id: string | undefined,
  values: TasksCommandOptions,
  io: TasksIo,
): Promise<number> {
  checkTasksArguments(action, id, values);
  const operator = new OperatorTasks({ store: io.store, clock: io.clock });
  if (action === 'list') {
    try {
      return await list(operator, values, io);
    } catch (error) {
      if (error instanceof TaskQueryError) throw usage(`--cursor: ${error.message}`);
      throw error;
    }
  }
  if (action === 'show') {
    const task = await operator.show(id!);
    if (!task) return notFound(io, id!);
    io.out(values.json ? `${JSON.stringify(taskJson(task), null, 2)}\n` : taskText(task, io.clock()));
    return 0;
  }
  const outcome = await operator.cancel(id!);
  if (outcome === 'missing') return notFound(io, id!);
  const status = outcome === 'terminal' ? (await operator.show(id!))?.status : undefined;
  const said = {
    cancelled: 'cancelled',
    requested: 'cancel requested: its running step is being stopped',
    terminal: `already ${status && isTerminalStatus(status) ? status : 'finished'}: nothing to cancel`,
  }[outcome];
  io.out(values.json ? `${JSON.stringify({ taskId: id, outcome })}\n` : `${id} ${said}\n`);
  return 0;
}

function notFound(io: TasksIo, id: string): number {
  io.err(`baton tasks: no task "${id}" in this store\n`);
  return 1;
}

async function list(operator: OperatorTasks, values: TasksCommandOptions, io: TasksIo): Promise<number> {
  const wanted = values.limit === undefined ? DEFAULT_LIMIT : Number(values.limit);
  const status = values.status?.split(',') as TaskStatus[] | undefined;
  const tasks: Array<TaskSummary | StuckTask> = [];
  let cursor = values.cursor;
  do {
    const limit = Math.min(PAGE, wanted - tasks.length);
    const page = values.stuck
      ? await operator.stuck({ ...(values.tool ? { tool: values.tool } : {}), limit, ...(cursor ? { cursor } : {}) })
      : await operator.list({ status, tool: values.tool, limit, cursor });
    // A stuck page keeps only the stuck tasks of what it read: more than `limit` are never added.
    tasks.push(...page.tasks.filter((task) => !status || status.includes(task.status)));
    cursor = page.cursor;
  } while (cursor && tasks.length < wanted);
  if (values.json) {
    io.out(`${JSON.stringify({ tasks: tasks.map(taskJson), ...(cursor ? { cursor } : {}) }, null, 2)}\n`);
  } else if (tasks.length === 0) {
    io.err('baton tasks: no task matches\n');
  } else {
    io.out(taskTable(tasks, io.clock()));
    if (cursor) io.err(`baton tasks: more tasks: --cursor ${cursor}\n`);
  }
  return 0;
}
