/**
 * Turns the matrix's run records into what the report states: per target and flow whether every
 * run completed without errors, per flow and concurrency the medians of each target, and the
 * ratios Baton/SDK and Baton/floor computed within each repetition (the runs of one repetition
 * are adjacent in time, so they share the machine's noise) with their min-max over repetitions.
 */
import type { FlowLabel } from '../flows/bench-flows.js';
import { median } from '../load/percentiles.js';
import type { RunRecord } from '../run-matrix.js';
import type { TargetKind } from '../targets/target-protocol.js';

export interface Spread {
  median: number;
  min: number;
  max: number;
  count: number;
}

export function spread(values: number[]): Spread {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return { median: NaN, min: NaN, max: NaN, count: 0 };
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite), count: finite.length };
}

export interface Combination {
  target: TargetKind;
  flow: FlowLabel;
  runs: number;
  passed: boolean;
  problems: string[];
}

/** A target x flow combination passes when every one of its runs completed flows without an error. */
export function combinations(records: RunRecord[]): Combination[] {
  const byKey = new Map<string, Combination>();
  for (const record of records) {
    const key = `${record.target}\u0000${record.flow}`;
    let combination = byKey.get(key);
    if (!combination) {
      combination = { target: record.target, flow: record.flow, runs: 0, passed: true, problems: [] };
      byKey.set(key, combination);
    }
    combination.runs++;
    const where = `c=${record.concurrency} rep ${record.rep}`;
    if (record.failure) combination.problems.push(`${where}: ${record.failure}`);
    else if (!record.result || record.result.flows === 0) combination.problems.push(`${where}: no flow completed`);
    if (record.result && record.result.errors > 0) {
      combination.problems.push(`${where}: ${record.result.errors} errors (${record.result.errorSamples.join('; ')})`);
    }
    combination.passed = combination.problems.length === 0;
  }
  return [...byKey.values()];
}

/** One metric of a run, or NaN when the run has no result. */
export type Metric = (record: RunRecord) => number;

export const metrics = {
  flowsPerSecond: (r) => r.result?.flowsPerSecond ?? NaN,
  requestsPerSecond: (r) => r.result?.requestsPerSecond ?? NaN,
  p50: (r) => r.result?.requestLatencyMs.p50 ?? NaN,
  p90: (r) => r.result?.requestLatencyMs.p90 ?? NaN,
  p99: (r) => r.result?.requestLatencyMs.p99 ?? NaN,
  flowP50: (r) => r.result?.flowLatencyMs.p50 ?? NaN,
  flowP99: (r) => r.result?.flowLatencyMs.p99 ?? NaN,
  serverCpu: (r) => r.serverCpuMicrosPerRequest ?? NaN,
  serverWrite: (r) => r.serverWriteMicrosPerRequest ?? NaN,
  serverWork: (r) => r.serverWorkMicrosPerRequest ?? NaN,
  serverShare: (r) => r.serverCpuShare ?? NaN,
  clientCpu: (r) => r.result?.clientCpuMicrosPerRequest ?? NaN,
  clientShare: (r) => (r.result ? (r.result.clientCpuMicrosPerRequest * r.result.requestsPerSecond) / 1e6 : NaN),
  requestBytes: (r) => r.result?.requestBytes ?? NaN,
  responseBytes: (r) => r.result?.responseBytes ?? NaN,
  errors: (r) => r.result?.errors ?? NaN,
} satisfies Record<string, Metric>;

/** The median of `metric` over `records` (NaN when there are none). */
export function medianOf(records: RunRecord[], metric: Metric): number {
  return spread(records.map(metric)).median;
}

export function select(records: RunRecord[], flow: FlowLabel, concurrency: number, target: TargetKind): RunRecord[] {
  return records.filter((r) => r.flow === flow && r.concurrency === concurrency && r.target === target);
}

/** The spread over repetitions of `metric(a) / metric(b)`, pairing runs of the same repetition. */
export function ratio(
  records: RunRecord[],
  flow: FlowLabel,
  concurrency: number,
  a: TargetKind,
  b: TargetKind,
  metric: Metric,
): Spread {
  const values: number[] = [];
  for (const runA of select(records, flow, concurrency, a)) {
    const runB = select(records, flow, concurrency, b).find((r) => r.rep === runA.rep);
    if (runB) values.push(metric(runA) / metric(runB));
  }
  return spread(values);
}
