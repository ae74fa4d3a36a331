/**
 * The measured matrix: for each concurrency and flow, `reps` repetitions of the target sequence
 * A B C, so the targets are compared side by side under the same background noise. Each run
 * samples the target's CPU time over exactly the measured window.
 */
import type { BenchOptions } from './bench-options.js';
import type { BenchFlow, FlowLabel } from './flows/bench-flows.js';
import { runLoad, type LoadResult } from './load/load-generator.js';
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
  try {
    const result = await runLoad({
      url: target.url,
      flow,
      concurrency,
      warmupMs: options.warmupMs,
      durationMs: options.durationMs,
      onWindowStart: async () => {
        before = await target.usage();
      },
      onWindowEnd: async () => {
        after = await target.usage();
      },
    });
    record.result = result;
    if (before && after) {
      const cpu = after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system;
      record.serverCpuMicrosPerRequest = result.requests ? cpu / result.requests : undefined;
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

export async function runMatrix(
  targets: TargetHandle[],
  options: BenchOptions,
  onRun: (record: RunRecord) => void,
): Promise<RunRecord[]> {
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
