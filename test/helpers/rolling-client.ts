/**
 * The clients of the rolling-deploy test (test/features/rolling-deploy.test.ts): release flows and
 * `rollout` tasks driven through nginx round by round, each remembering which build answered each
 * round, what it was asked again, and what failed; requests nginx could not deliver (an instance
 * stopping) are sent again, as a client does.
 */
import { Agent, request } from 'node:http';
import { TASKS_EXTENSION } from '../../server/engine/index.js';
import { requestMeta, standardHeaders } from './mcp-http.js';

export const CONCURRENCY = 8;
const RETRYABLE = new Set([502, 503, 504]);
const WINDOWS = ['now', 'tonight', 'weekend'];
/** How long the tasks of a phase may take, before those still going count as unfinished. */
export const TASK_PHASE_MS = 45_000;
/** A client of the tasks extension that answers forms. */
const TASK_CLIENT = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
const TASK_ANSWERS: Record<string, (task: TaskRun) => Record<string, unknown>> = {
  approve: () => ({ approve: true }),
  window: (task) => ({ window: task.window }),
  verify: () => ({ healthy: true }),
};

export interface Flow {
  service: string;
  window: string;
  /** The build of each round's instance, in order. */
  builds: string[];
  answered: Set<string>;
  reasks: number;
  crashes: string[];
  /** Attempts the proxy could not deliver (an instance stopping), sent again. */
  retries: number;
  state?: { requestState: string; inputResponses: Record<string, unknown> };
  deploymentId?: string;
  done: boolean;
}

export interface TaskRun {
  service: string;
  window: string;
  taskId?: string;
  /** The build of the instance that created it: its version is the task's. */
  createdOn?: string;
  answered: Set<string>;
  reasks: number;
  crashes: string[];
  retries: number;
  status?: string;
  /** A terminal status other than completed, with its error. */
  failure?: string;
  /** The structured result: which machine ran it (`machine`) and its effect's key (`applied`). */
  result?: { machine?: string; applied?: string; window?: string | null };
  /** When the request that moves it on was sent (created, answered). */
  sentAt?: number | undefined;
  /** From each such request to the next pause or the end, ms. */
  stepMs: number[];
  done: boolean;
}

export class RollingClient {
  readonly agent = new Agent({ keepAlive: true, maxSockets: 4 * CONCURRENCY });
  #id = 1;
  constructor(
    readonly url: string,
    readonly buildOf: (instance: string) => string,
  ) {}

  post(
    params: Record<string, unknown>,
    method = 'tools/call',
  ): Promise<{ status: number; instance: string; body: any }> {
    const message = { jsonrpc: '2.0', id: this.#id++, method, params };
    const text = JSON.stringify(message);
    return new Promise((resolve, reject) => {
      const req = request(
        this.url,
        {
          method: 'POST',
          agent: this.agent,
          headers: { ...standardHeaders(message), 'content-length': Buffer.byteLength(text) },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('error', reject);
          res.on('end', () => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(body);
            } catch {
              parsed = { unparsed: body };
            }
            resolve({ status: res.statusCode!, instance: String(res.headers['baton-instance']), body: parsed });
          });
        },
      );
      req.setTimeout(15_000, () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(text);
    });
  }

  /** One round of `flow`: its first call, or its answers to the last questions. */
  async round(flow: Flow): Promise<void> {
    const params = {
      name: 'release',
      arguments: { service: flow.service, version: '2.0.0' },
      ...(flow.state ?? {}),
      _meta: requestMeta({ elicitation: {} }),
    };
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      let answer;
      try {
        answer = await this.post(params);
      } catch {
        flow.retries += 1;
        await sleep(20 * attempt);
        continue;
      }
      if (RETRYABLE.has(answer.status) && answer.instance === 'undefined') {
        // From nginx, not an instance: the upstream it picked is gone. Sent again, as a client does.
        flow.retries += 1;
        await sleep(20 * attempt);
        continue;
      }
      const build = this.buildOf(answer.instance);
      flow.builds.push(build);
      const error = answer.body?.error;
      if (answer.status >= 500 || answer.status !== 200 || error || !answer.body?.result) {
        flow.crashes.push(`${build}: HTTP ${answer.status} ${JSON.stringify(error ?? answer.body).slice(0, 200)}`);
        flow.done = true;
        return;
      }
      const result = answer.body.result;
      if (result.resultType !== 'input_required') {
        flow.deploymentId = result.structuredContent?.deploymentId;
        flow.done = true;
        return;
      }
      const keys = Object.keys(result.inputRequests);
      if (keys.some((key) => flow.answered.has(key))) flow.reasks += 1;
      const inputResponses: Record<string, unknown> = {};
      for (const key of keys) {
        flow.answered.add(key);
        const content = key === 'window' ? { window: flow.window } : key === 'confirm' ? { confirm: true } : {};
        inputResponses[key] = { action: 'accept', content };
      }
      flow.state = { requestState: result.requestState, inputResponses };
      return;
    }
    flow.crashes.push('10 attempts undelivered');
    flow.done = true;
  }

  async finish(flow: Flow): Promise<void> {
    for (let rounds = 0; !flow.done && rounds < 10; rounds += 1) await this.round(flow);
  }

  /** One request of `task`'s, sent again while nginx cannot deliver it; its result, or undefined (a crash). */
  async #taskRequest(task: TaskRun, method: string, params: Record<string, unknown>): Promise<any> {
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      let answer;
      try {
        answer = await this.post({ ...params, _meta: requestMeta(TASK_CLIENT) }, method);
      } catch {
        task.retries += 1;
        await sleep(20 * attempt);
        continue;
      }
      if (RETRYABLE.has(answer.status) && answer.instance === 'undefined') {
        task.retries += 1;
        await sleep(20 * attempt);
        continue;
      }
      const build = this.buildOf(answer.instance);
      const error = answer.body?.error;
      if (answer.status !== 200 || error || !answer.body?.result) {
        task.crashes.push(
          `${build} ${method}: HTTP ${answer.status} ${JSON.stringify(error ?? answer.body).slice(0, 200)}`,
        );
        task.done = true;
        return undefined;
      }
      if (method === 'tools/call') task.createdOn = build;
      return answer.body.result;
    }
    task.crashes.push(`${method}: 10 attempts undelivered`);
    task.done = true;
    return undefined;
  }

  /** Creates `task` on whichever instance nginx picks (its build's version is the task's). */
  async createTask(task: TaskRun): Promise<void> {
    const created = await this.#taskRequest(task, 'tools/call', {
      name: 'rollout',
      arguments: { service: task.service },
    });
    if (!created) return;
    if (created.resultType !== 'task') {
      task.crashes.push(`not a task: ${JSON.stringify(created).slice(0, 200)}`);
      task.done = true;
      return;
    }
    task.taskId = created.taskId;
    task.sentAt = Date.now();
  }

  /**
   * Polls `task` (tasks/get, wherever nginx sends it) until it asks or ends; answers what it asks
   * (tasks/update), unless `answer` is false. A question asked again after it was answered is a
   * re-ask. Each wait from a request that moved the task on to the next pause is a step's time.
   */
  async stepTask(task: TaskRun, deadline: number, answer = true): Promise<void> {
    while (!task.done) {
      if (Date.now() > deadline) {
        task.done = true;
        return;
      }
      const got = await this.#taskRequest(task, 'tasks/get', { taskId: task.taskId });
      if (!got) return;
      task.status = got.status;
      if (got.status === 'working') {
        await sleep(100);
        continue;
      }
      if (task.sentAt !== undefined) task.stepMs.push(Date.now() - task.sentAt);
      task.sentAt = undefined;
      if (got.status !== 'input_required') {
        task.done = true;
        if (got.status === 'completed') task.result = got.result?.structuredContent;
        else task.failure = `${got.status}: ${JSON.stringify(got.error ?? got.statusMessage ?? '')}`;
        return;
      }
      if (!answer) return;
      const keys = Object.keys(got.inputRequests ?? {});
      const inputResponses: Record<string, unknown> = {};
      for (const key of keys) {
        // Wire keys are unique over a task's life: `approve.2` is `approve` asked again.
        const question = key.replace(/\.\d+$/, '');
        if (task.answered.has(question)) task.reasks += 1;
        task.answered.add(question);
        inputResponses[key] = { action: 'accept', content: TASK_ANSWERS[question]?.(task) ?? {} };
      }
      const updated = await this.#taskRequest(task, 'tasks/update', { taskId: task.taskId, inputResponses });
      if (!updated) return;
      task.sentAt = Date.now();
      return;
    }
  }

  async finishTask(task: TaskRun, deadline: number): Promise<void> {
    while (!task.done) await this.stepTask(task, deadline);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function inPool<T>(
  items: T[],
  work: (item: T) => Promise<void>,
  concurrency = CONCURRENCY,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export function newTasks(run: string, phase: string, count: number): TaskRun[] {
  return Array.from({ length: count }, (_, index) => ({
    service: `task-${run}-${phase}-${index}`,
    window: WINDOWS[index % WINDOWS.length]!,
    answered: new Set<string>(),
    reasks: 0,
    crashes: [],
    retries: 0,
    stepMs: [],
    done: false,
  }));
}

export function newFlows(run: string, phase: string, count: number): Flow[] {
  return Array.from({ length: count }, (_, index) => ({
    service: `svc-${run}-${phase}-${index}`,
    window: WINDOWS[index % WINDOWS.length]!,
    builds: [],
    answered: new Set<string>(),
    reasks: 0,
    crashes: [],
    retries: 0,
    done: false,
  }));
}

/**
 * Old and new builds side by side behind nginx, then the old ones stopped with flows in flight.
 * With Redis, tasks of `rollout` go alongside: created, polled and answered through nginx, their
 * steps run by whichever worker takes the job from the shared queue.
 */
