/**
 * How much slower the same code runs under the bench's load than in a hot loop, for each target's
 * own request work (bench/targets/request-work.ts): Baton's engine round (`FlowEngine#run`) and
 * the floor's JSON work, each timed where it runs under load and, on the same requests, by the
 * micro-benchmarks. The limit L takes the unavoidable steps at their hot-loop cost and everything
 * else at its cost under load; the factors show what that mix leaves out. Information for the
 * reader, not part of the bar: the bar's L stays as issue 14 defines it (bar.ts).
 */
import type { MicroResult } from '../micro/engine-steps.js';
import type { RunRecord } from '../run-matrix.js';
import { limitCells, type LimitCell } from './bar.js';
import { medianOf, metrics, select } from './summary.js';

export interface LoadFactorCell extends LimitCell {
  /** µs per request: the floor's JSON work and Baton's engine round, hot and under load. */
  floorWorkHot: number;
  floorWorkLoaded: number;
  engineRunHot: number;
  engineRunLoaded: number;
  /** The limit with the steps scaled by the engine round's own factor (loaded ÷ hot). */
  limitStepsLoaded: number;
}

export function loadFactorCells(records: RunRecord[], micro: MicroResult | undefined): LoadFactorCell[] {
  const result: LoadFactorCell[] = [];
  for (const cell of limitCells(records, micro)) {
    const timing = micro?.flows?.find((f) => f.flow === cell.flow);
    const m = (target: 'baton' | 'floor') =>
      medianOf(select(records, cell.flow, cell.concurrency, target), metrics.serverWork);
    const values = {
      floorWorkHot: timing?.floorAnswerPerRequest ?? NaN,
      floorWorkLoaded: m('floor'),
      engineRunHot: timing?.engineRunPerRequest ?? NaN,
      engineRunLoaded: m('baton'),
    };
    if (!Object.values(values).every(Number.isFinite)) continue;
    const engineFactor = values.engineRunLoaded / values.engineRunHot;
    result.push({ ...cell, ...values, limitStepsLoaded: cell.limit + cell.steps * (engineFactor - 1) });
  }
  return result;
}
