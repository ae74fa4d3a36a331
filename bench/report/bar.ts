/**
 * The issue's bar (issue 14), checked against one run. The limit of a cell (flow, concurrency) is
 * what no server of Baton's design can avoid, every term measured in this run:
 *
 *   L = (floor CPU per request − the floor's write) + Baton's write + the flow's unavoidable steps
 *       per request
 *
 * The write is counted at each target's own cost (bench/targets/write-timer.ts): a write that wakes
 * an idle load generator costs Baton several times what it costs the floor, which keeps it busy,
 * and no server code removes that. The steps are the micro-benchmarks' (bench/micro/), summed over
 * the flow's real rounds and divided by its requests: a request of the bench is an average one of
 * its flow, and the rounds differ (the first builds the initial state and opens nothing, the last
 * seals nothing, the parallel flow's middle round takes two answers).
 */
import type { FlowLabel } from '../flows/bench-flows.js';
import type { MemoryResult } from '../memory-check.js';
import type { MicroResult } from '../micro/engine-steps.js';
import type { RunRecord } from '../run-matrix.js';
import { medianOf, metrics, ratio, select, type Spread } from './summary.js';

export interface BarLine {
  criterion: string;
  bar: string;
  /** What was measured, formatted, or undefined when the run did not measure it. */
  measured: string | undefined;
  met: boolean | undefined;
}

export const BAR = {
  batonOverLimit: 1.3,
  engineOverSteps: 1.25,
  batonOverSdkFlows: 3.5,
  batonOverSdkP99: 0.3,
  stateBytes: 600,
  rssGrowthBytes: 10 * 2 ** 20,
  memoryFlows: 100_000,
};

/**
 * The steps of a middle round no implementation of this design avoids: open the token, parse it,
 * restore and start the actor, send the answer, persist, stringify and seal, digest the arguments,
 * map the answer, and build the question asked next. (De)compression is left out: the bench states are under the size that is
 * compressed. A first or last round performs another set (bench/micro/round-steps.ts).
 */
export const UNAVOIDABLE_STEPS = [
  'open',
  'parse',
  'restore',
  'start',
  'send',
  'persist',
  'stringify',
  'seal',
  'binding',
  'answer mapping',
  'ask',
] as const;

/**
 * The sum of the three-question middle round's unavoidable steps (median µs each), which
 * `FlowEngine.run` for that round is judged against, or undefined when one was not measured.
 */
export function stepsSum(micro: MicroResult | undefined): number | undefined {
  if (!micro) return undefined;
  const all = [...micro.steps, ...micro.extras];
  let sum = 0;
  for (const name of UNAVOIDABLE_STEPS) {
    const step = all.find((s) => s.step === name);
    if (!step) return undefined;
    sum += step.medianMicros;
  }
  return sum;
}

/** A flow's unavoidable steps per request (µs), or undefined when the run did not measure them. */
export function flowStepsPerRequest(micro: MicroResult | undefined, flow: FlowLabel): number | undefined {
  return micro?.flows?.find((f) => f.flow === flow)?.perRequest;
}

export interface LimitCell {
  flow: FlowLabel;
  concurrency: number;
  floorCpu: number;
  floorWrite: number;
  batonWrite: number;
  /** The flow's unavoidable steps per request. */
  steps: number;
  limit: number;
  batonCpu: number;
  /**
   * Baton's median CPU per request ÷ the limit built from the other terms' medians. Not a median of
   * ratios taken within each repetition: on a VM with slow spells those scatter as much
   * (bench/report/profile.md, the fourth round).
   */
  ratio: number;
}

/** The limit and Baton's distance from it in every cell the run measured all three terms of. */
export function limitCells(records: RunRecord[], micro: MicroResult | undefined): LimitCell[] {
  const result: LimitCell[] = [];
  for (const { flow, concurrency } of cellKeys(records)) {
    const steps = flowStepsPerRequest(micro, flow);
    if (steps === undefined) continue;
    const m = (target: 'baton' | 'floor', metric: typeof metrics.serverCpu) =>
      medianOf(select(records, flow, concurrency, target), metric);
    const [floorCpu, floorWrite, batonWrite, batonCpu] = [
      m('floor', metrics.serverCpu),
      m('floor', metrics.serverWrite),
      m('baton', metrics.serverWrite),
      m('baton', metrics.serverCpu),
    ];
    if (![floorCpu, floorWrite, batonWrite, batonCpu].every(Number.isFinite)) continue;
    const limit = floorCpu - floorWrite + batonWrite + steps;
    result.push({
      flow,
      concurrency,
      floorCpu,
      floorWrite,
      batonWrite,
      steps,
      limit,
      batonCpu,
      ratio: batonCpu / limit,
    });
  }
  return result;
}

interface Cell {
  flow: FlowLabel;
  concurrency: number;
  spread: Spread;
}

function cellKeys(records: RunRecord[]): Array<{ flow: FlowLabel; concurrency: number }> {
  const seen = new Set<string>();
  const keys: Array<{ flow: FlowLabel; concurrency: number }> = [];
  for (const r of records) {
    const key = `${r.flow}/${r.concurrency}`;
    if (seen.has(key)) continue;
    seen.add(key);
    keys.push({ flow: r.flow, concurrency: r.concurrency });
  }
  return keys;
}

function cells(records: RunRecord[], compute: (flow: FlowLabel, c: number) => Spread): Cell[] {
  return cellKeys(records)
    .map(({ flow, concurrency }) => ({ flow, concurrency, spread: compute(flow, concurrency) }))
    .filter((c) => c.spread.count > 0);
}

function worst<T>(list: T[], value: (item: T) => number, lowerIsWorse: boolean): T | undefined {
  return list.reduce<T | undefined>((w, c) => {
    if (!w) return c;
    return lowerIsWorse ? (value(c) < value(w) ? c : w) : value(c) > value(w) ? c : w;
  }, undefined);
}

const where = (c: { flow: FlowLabel; concurrency: number }) => `${c.flow}, c=${c.concurrency}`;
const times = (v: number) => `${v.toFixed(2)}x`;

export function barLines(
  records: RunRecord[],
  memory: MemoryResult | undefined,
  micro: MicroResult | undefined,
): BarLine[] {
  const lines: BarLine[] = [];

  const limits = limitCells(records, micro);
  const far = worst(limits, (c) => c.ratio, false);
  lines.push({
    criterion: 'Baton CPU per request ÷ the limit L',
    bar: `≤ ${times(BAR.batonOverLimit)}`,
    measured: far
      ? `${times(far.ratio)} (worst: ${where(far)}, ${far.batonCpu.toFixed(0)} µs against L = ${far.limit.toFixed(0)} µs)`
      : undefined,
    met: far ? limits.every((c) => c.ratio <= BAR.batonOverLimit) : undefined,
  });

  const run = micro?.extras.find((s) => s.step === 'FlowEngine.run');
  const steps = stepsSum(micro);
  lines.push({
    criterion: '`FlowEngine.run` for a round ÷ the sum of its steps',
    bar: `≤ ${times(BAR.engineOverSteps)}`,
    measured:
      run && steps !== undefined
        ? `${times(run.medianMicros / steps)} (${run.medianMicros.toFixed(1)} µs against ${steps.toFixed(1)} µs)`
        : undefined,
    met: run && steps !== undefined ? run.medianMicros / steps <= BAR.engineOverSteps : undefined,
  });

  const ratioLine = (criterion: string, metric: typeof metrics.p99, bar: number, atLeast: boolean) => {
    const all = cells(records, (flow, c) => ratio(records, flow, c, 'baton', 'sdk', metric));
    const w = worst(all, (c) => c.spread.median, atLeast);
    lines.push({
      criterion,
      bar: `${atLeast ? '≥' : '≤'} ${times(bar)}`,
      measured: w ? `${times(w.spread.median)} (worst median: ${where(w)})` : undefined,
      met: w ? all.every((c) => (atLeast ? c.spread.median >= bar : c.spread.median <= bar)) : undefined,
    });
  };
  ratioLine('Baton flows/s ÷ SDK flows/s', metrics.flowsPerSecond, BAR.batonOverSdkFlows, true);
  ratioLine('Baton p99 request latency ÷ SDK p99', metrics.p99, BAR.batonOverSdkP99, false);

  const state = Math.max(
    0,
    ...records
      .filter((r) => r.target === 'baton' && r.flow === 'three-question')
      .map((r) => r.result?.stateSizes.max ?? 0),
  );
  lines.push({
    criterion: 'Sealed state, three-question flow (largest seen)',
    bar: `≤ ${BAR.stateBytes} B`,
    measured: state ? `${state} B` : undefined,
    met: state ? state <= BAR.stateBytes : undefined,
  });

  // The bar is about 100k flows: a shorter check is reported, not judged.
  const growth = memory ? memory.afterFlows.rss - memory.afterWarmup.rss : undefined;
  const enough = memory !== undefined && memory.flows >= BAR.memoryFlows;
  lines.push({
    criterion: 'RSS growth over 100k flows (after warm-up)',
    bar: '≤ 10 MB',
    measured:
      growth === undefined
        ? undefined
        : `${(growth / 2 ** 20).toFixed(1)} MB${enough ? '' : ` (over ${memory!.flows.toLocaleString('en')} flows only)`}`,
    met: growth === undefined || !enough ? undefined : growth <= BAR.rssGrowthBytes,
  });
  return lines;
}
