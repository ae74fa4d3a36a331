/**
 * Work in flight on a fleet sharing a Redis set-up, for the high-availability tests
 * (redis-sentinel-failover, redis-cluster): ship-release tasks started and approved across two
 * instances (they then bake on a durable timer and promote), and release flows paused at their
 * single-use confirmation; then what the effects journal says. Every call goes to the instances
 * in turn, so work crosses between them. Transient refusals (a failover, a moved slot) are retried
 * as a client would.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isTerminalStatus } from '../../server/engine/index.js';
import { callTool } from './mcp-http.js';
import type { BatonInstance } from './spawn-baton.js';
import { TASK_CLIENT, taskRpc } from './tasks.js';

const approve = { approve: { action: 'accept', content: { approve: true, approver: 'fleet' } } };
const confirm = { confirm: { action: 'accept', content: { confirm: true } } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retries until `attempt` gives a value; `final` says which errors end the wait at once. */
export async function patiently<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  final: (error: unknown) => boolean = () => false,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (error) {
      if (final(error)) throw error;
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: gave up (${String(last)})`);
    await sleep(200);
  }
}

export interface PausedFlow {
  args: Record<string, unknown>;
  requestState: string;
}

export class FleetWork {
  constructor(readonly instances: BatonInstance[]) {}

  on(index: number): BatonInstance {
    return this.instances[index % this.instances.length]!;
  }

  /** `count` ship-release tasks, started and approved; their ids. */
  async approvedTasks(count: number, bakeSeconds = 2): Promise<string[]> {
    const taskIds: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const created = await patiently(`create task ${i}`, async () => {
        const answer = await callTool(
          this.on(i).url,
          'ship-release',
          { service: `svc-${i}`, version: '1', bakeSeconds },
          {},
          { capabilities: TASK_CLIENT },
        );
        return answer.body?.result?.taskId as string | undefined;
      });
      taskIds.push(created);
    }
    for (const [i, taskId] of taskIds.entries()) {
      await patiently(`approve ${taskId}`, async () => {
        const task = (await taskRpc(this.on(i + 1).url, 'tasks/get', { taskId })).body?.result;
        if (task?.status !== 'input_required') return undefined;
        const answered = await taskRpc(this.on(i + 1).url, 'tasks/update', { taskId, inputResponses: approve });
        return answered.status === 200 && !answered.body.error ? true : undefined;
      });
    }
    return taskIds;
  }

  /** `count` release flows, each paused at its single-use confirmation. */
  async pausedConfirmations(count: number): Promise<PausedFlow[]> {
    const flows: PausedFlow[] = [];
    for (let i = 0; i < count; i += 1) {
      const args = { service: `flow-${i}`, version: '1.0.0' };
      const first = (await callTool(this.on(i).url, 'release', args)).body.result;
      const next = (
        await callTool(this.on(i + 1).url, 'release', args, {
          requestState: first.requestState,
          inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
        })
      ).body.result;
      flows.push({ args, requestState: next.requestState });
    }
    return flows;
  }

  /** Presents a paused confirmation, accepted, to instance `index`; its result, or an error naming the answer. */
  async present(index: number, flow: PausedFlow): Promise<any> {
    const answer = await callTool(this.on(index).url, 'release', flow.args, {
      requestState: flow.requestState,
      inputResponses: confirm,
    });
    if (answer.status === 200 && answer.body.result) return answer.body.result;
    throw new Error(`HTTP ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  }

  /** Each task once it has ended, read from the instances in turn. */
  async ended(taskIds: string[]): Promise<any[]> {
    const tasks = [];
    for (const [i, taskId] of taskIds.entries()) {
      tasks.push(
        await patiently(`task ${taskId}`, async () => {
          const task = (await taskRpc(this.on(i).url, 'tasks/get', { taskId })).body?.result;
          return task && isTerminalStatus(task.status) ? task : undefined;
        }),
      );
    }
    return tasks;
  }
}

/** The effects journal (BATON_DEPLOY_JOURNAL): deployments and promotions by id, and how many ran twice. */
export function journaled(journal: string): { deployments: string[]; promotions: string[]; twice: number } {
  const lines = existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter(Boolean) : [];
  const count = new Map<string, number>();
  for (const line of lines) {
    const id = line.startsWith('promote ') ? line.split(' ')[1]! : line.split(' ')[0]!;
    count.set(id, (count.get(id) ?? 0) + 1);
  }
  return {
    deployments: [...count.keys()].filter((id) => id.startsWith('flow-')),
    promotions: [...count.keys()].filter((id) => !id.startsWith('flow-')),
    twice: [...count.values()].filter((n) => n > 1).length,
  };
}
