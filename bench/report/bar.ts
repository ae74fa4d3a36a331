/**
 * The issue's bar, checked against one run: throughput and p99 ratios (the worst median over the
 * flows and concurrencies measured), the three-question state size and the RSS growth.
 */
import type { FlowLabel } from '../flows/bench-flows.js';
import type { MemoryResult } from '../memory-check.js';
import type { RunRecord } from '../run-matrix.js';
import { metrics, ratio, type Spread } from './summary.js';

export interface BarLine {
  criterion: string;
  bar: string;
  /** What was measured, formatted, or undefined when the run did not measure it. */
  measured: string | undefined;
  met: boolean | undefined;
}

export const BAR = {
  batonOverSdkFlows: 5,
  batonOverFloorFlows: 0.4,
  batonOverSdkP99: 1 / 5,
  stateBytes: 600,
  rssGrowthBytes: 10 * 2 ** 20,
  memoryFlows: 100_000,
};

interface Cell {
  flow: FlowLabel;
  concurrency: number;
  spread: Spread;
}

function cells(records: RunRecord[], compute: (flow: FlowLabel, c: number) => Spread): Cell[] {
  const seen = new Set<string>();
  const result: Cell[] = [];
  for (const r of records) {
    const key = `${r.flow}/${r.concurrency}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const s = compute(r.flow, r.concurrency);
    if (s.count > 0) result.push({ flow: r.flow, concurrency: r.concurrency, spread: s });
  }
  return result;
}

function worst(list: Cell[], lowerIsWorse: boolean): Cell | undefined {
  return list.reduce<Cell | undefined>((w, c) => {
    if (!w) return c;
    return lowerIsWorse ? (c.spread.median < w.spread.median ? c : w) : c.spread.median > w.spread.median ? c : w;
  }, undefined);
}

const where = (c: Cell) => `${c.flow}, c=${c.concurrency}`;
const times = (v: number) => `${v.toFixed(2)}x`;

export function barLines(records: RunRecord[], memory: MemoryResult | undefined): BarLine[] {
  const lines: BarLine[] = [];
  const ratioLine = (
    criterion: string,
    b: 'sdk' | 'floor',
    metric: typeof metrics.p99,
    bar: number,
    atLeast: boolean,
  ) => {
    const all = cells(records, (flow, c) => ratio(records, flow, c, 'baton', b, metric));
    const w = worst(all, atLeast);
    lines.push({
      criterion,
      bar: `${atLeast ? '≥' : '≤'} ${bar === BAR.batonOverSdkP99 ? '1/5' : times(bar)}`,
      measured: w ? `${times(w.spread.median)} (worst median: ${where(w)})` : undefined,
      met: w ? all.every((c) => (atLeast ? c.spread.median >= bar : c.spread.median <= bar)) : undefined,
    });
  };
  ratioLine('Baton flows/s ÷ SDK flows/s', 'sdk', metrics.flowsPerSecond, BAR.batonOverSdkFlows, true);
  ratioLine('Baton flows/s ÷ floor flows/s', 'floor', metrics.flowsPerSecond, BAR.batonOverFloorFlows, true);
  ratioLine('Baton p99 request latency ÷ SDK p99', 'sdk', metrics.p99, BAR.batonOverSdkP99, false);

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
