/**
 * The measured matrix: for each concurrency and flow, `reps` repetitions of the target sequence
 * A B C D E, so the targets are compared side by side under the same background noise. Each run
 * samples the target's CPU time over exactly the measured window, the same way for every target:
 * from /proc/<pid>/stat (proc-usage.ts), read by the runner, or over IPC where there is no /proc.
 */
import type { BenchOptions } from './bench-options.js';
import type { BenchFlow, FlowLabel } from './flows/bench-flows.js';
import { runLoad, type LoadResult } from './load/load-generator.js';
import { hasProcUsage, procUsage } from './targets/proc-usage.js';
import { TARGETS } from './targets/target-catalogue.js';
import type { TargetHandle } from './targets/target-handle.js';
import type { TargetKind, Usage } from './targets/target-protocol.js';

export interface RunRecord {
  target: TargetKind;
  flow: FlowLabel;
  concurrency: number;
  rep: number;
  result?: LoadResult;
  /** Server CPU (user + system) over the window, per request completed in it. */
  serverCpuMicrosPerRequest?: number;
  /** Share of one core the server used over the window. */
  serverCpuShare?: number;
  /** Server time inside socket writes over the window, per request (bench/targets/write-timer.ts). */
  serverWriteMicrosPerRequest?: number;
  /**
   * The target's own request work over the window, per request (bench/targets/request-work.ts):
   * Baton's engine rounds, the floor's JSON work; absent for the SDK.
   */
  serverWorkMicrosPerRequest?: number;
  serverRss?: number;
  /** Set when the run could not complete (the target died, a hook failed). */
  failure?: string;
}

export async function measureRun(
  target: TargetHandle,
  flow: BenchFlow,
  concurrency: number,
  rep: number,
  options: Pick<BenchOptions, 'warmupMs' | 'durationMs'>,
): Promise<RunRecord> {
  const record: RunRecord = { target: target.kind, flow: flow.label, concurrency, rep };
  let before: Usage | undefined;
  let after: Usage | undefined;
  const fromProc = hasProcUsage();
  // Read at once by the runner, before asking the target for the rest over IPC.
  const cpuNow = () => (fromProc ? procUsage(target.pid).cpu : undefined);
  let cpuBefore: Usage['cpu'] | undefined;
  let cpuAfter: Usage['cpu'] | undefined;
  try {
    const result = await runLoad({
      url: target.url,
      flow,
      concurrency,
      warmupMs: options.warmupMs,
      durationMs: options.durationMs,
      questionKeys: TARGETS[target.kind].questionKeys,
      onWindowStart: async () => {
        cpuBefore = cpuNow();
        before = await target.usage();
      },
      onWindowEnd: async () => {
        cpuAfter = cpuNow();
        after = await target.usage();
      },
    });
    record.result = result;
    if (before && after) {
      const start = cpuBefore ?? before.cpu;
      const end = cpuAfter ?? after.cpu;
      const cpu = end.user + end.system - start.user - start.system;
      if (result.requests) record.serverCpuMicrosPerRequest = cpu / result.requests;
      record.serverCpuShare = cpu / (result.windowMs * 1000);
      record.serverRss = after.rss;
      if (before.writes && after.writes && result.requests) {
        record.serverWriteMicrosPerRequest = (after.writes.micros - before.writes.micros) / result.requests;
      }
      if (before.work && after.work && after.work.count > before.work.count && result.requests) {
        record.serverWorkMicrosPerRequest = (after.work.micros - before.work.micros) / result.requests;
      }
    }
  } catch (error) {
    record.failure = (error as Error).message;
  }
  return record;
}

/**
 * Plays every flow 50 times (10 in quick mode) on each target before anything is measured: a
 * Python server imports and builds schemas on its first calls (its first requests take about a
 * second), and V8 compiles the hot paths of a Node one. Without it the first runs of the matrix
 * would measure that.
 */
export async function warmUp(targets: TargetHandle[], flows: readonly BenchFlow[], flowsEach: number): Promise<void> {
  for (const target of targets) {
    for (const flow of flows) {
      await runLoad({
        url: target.url,
        flow,
        concurrency: 4,
        warmupMs: 0,
        durationMs: 0,
        maxFlows: flowsEach,
        maxDurationMs: 10_000,
        questionKeys: TARGETS[target.kind].questionKeys,
      });
    }
  }
}

export async function runMatrix(
  targets: TargetHandle[],
  options: BenchOptions,
  onRun: (record: RunRecord) => void,
): Promise<RunRecord[]> {
  // Quick mode only needs the first calls out of the way, not the hot paths compiled.
  await warmUp(targets, options.flows, options.quick ? 10 : 50);
  const records: RunRecord[] = [];
  for (const concurrency of options.concurrency) {
    for (const flow of options.flows) {
      for (let rep = 1; rep <= options.reps; rep++) {
        for (const target of targets) {
          const record = await measureRun(target, flow, concurrency, rep, options);
          records.push(record);
          onRun(record);
        }
      }
    }
  }
  return records;
}
