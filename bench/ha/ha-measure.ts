/**
 * The two operations the high-availability bench counts, each from 16 clients for a few seconds
 * on one Baton and one Redis set-up:
 *
 * - a task: `tools/call` creates a one-step task, `subscriptions/listen` follows it until it
 *   completes (the step runs on the queue's worker in the meantime); its latency is create to
 *   completed, as the client sees it;
 * - a single-use round: a sealed state, paused at a single-use confirmation, presented with the
 *   answer; Baton claims it in Redis, runs to the result and records the outcome. The states are
 *   asked for first, so the window holds these rounds only.
 */
import { performance } from 'node:perf_hooks';
import { percentile } from '../tasks/task-load.js';
import type { HaClient } from './ha-client.js';
import { UsageProbe, type CostPerOp } from './ha-usage.js';

export const HA_CLIENTS = 16;
export const TASK_TOOL = 'bench-one-step';
export const SINGLE_USE_TOOL = 'bench-single-use';

export interface WindowFigures {
  perSecond: number;
  done: number;
  errors: number;
  /** The first few errors, as their messages say. */
  errorSamples: string[];
  p50Ms: number;
  p99Ms: number;
  seconds: number;
  cost: CostPerOp | undefined;
}

/**
 * Runs `one` from HA_CLIENTS workers until `seconds` have passed (or `more` says there is no more
 * to do: `one` then answers 'none'), reading what it cost around the window. A throw is an error.
 */
async function window(
  seconds: number,
  one: () => Promise<true | 'none'>,
  probe: UsageProbe | undefined,
  more: () => boolean = () => true,
): Promise<WindowFigures> {
  const latencies: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  const before = await probe?.read();
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: HA_CLIENTS }, async () => {
      while (performance.now() < end && more()) {
        const t0 = performance.now();
        const ok = await one().catch((error: unknown) => {
          if (errorSamples.length < 3) errorSamples.push(String(error).slice(0, 200));
          return false;
        });
        if (ok === true) latencies.push(performance.now() - t0);
        else if (ok === false) errors += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const after = await probe?.read();
  latencies.sort((a, b) => a - b);
  const done = latencies.length;
  return {
    perSecond: done / elapsed,
    done,
    errors,
    errorSamples,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    seconds: elapsed,
    cost: before && after && done > 0 ? UsageProbe.perOp(before, after, done) : undefined,
  };
}

/** Tasks created and run to completion per second. */
export function measureTasks(client: HaClient, seconds: number, probe?: UsageProbe): Promise<WindowFigures> {
  return window(
    seconds,
    async () => {
      const taskId = await client.createTask(TASK_TOOL);
      const last = await client.followToEnd(taskId);
      if (last?.status !== 'completed') throw new Error(`task ${taskId} ended ${last?.status ?? 'unseen'}`);
      return true as const;
    },
    probe,
  );
}

/** Sealed states paused at the single-use confirmation, asked for from every client for `seconds`. */
export async function pausedStates(client: HaClient, seconds: number): Promise<string[]> {
  const states: string[] = [];
  const figures = await window(
    seconds,
    async () => {
      states.push(await client.ask(SINGLE_USE_TOOL));
      return true as const;
    },
    undefined,
  );
  if (figures.errors > 0) throw new Error(`asking for single-use states: ${figures.errorSamples.join('; ')}`);
  return states;
}

/**
 * Single-use rounds per second: the states are asked for first (for 1.5 times the window, since
 * asking is cheaper than consuming), then presented once each.
 */
export async function measureSingleUse(client: HaClient, seconds: number, probe?: UsageProbe): Promise<WindowFigures> {
  const states = await pausedStates(client, seconds * 1.5);
  return window(
    seconds,
    async () => {
      const state = states.pop();
      if (state === undefined) return 'none';
      if (!(await client.confirm(SINGLE_USE_TOOL, state))) throw new Error('the confirmation did not run');
      return true as const;
    },
    probe,
    () => states.length > 0,
  );
}
