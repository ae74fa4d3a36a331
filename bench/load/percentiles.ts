/** Summary statistics for latency samples (nearest-rank percentiles, as load tools report them). */

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** The nearest-rank percentile `p` (0-100) of samples already sorted ascending; NaN when empty. */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  if (p <= 0) return sorted[0]!;
  if (p >= 100) return sorted[sorted.length - 1]!;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)]!;
}

export function summarize(samples: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  let total = 0;
  for (const value of sorted) total += value;
  return {
    count: sorted.length,
    mean: sorted.length ? total / sorted.length : NaN,
    p50: percentileOfSorted(sorted, 50),
    p90: percentileOfSorted(sorted, 90),
    p99: percentileOfSorted(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
  };
}

/** Median of a few numbers (repetitions, batches); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A growable list of samples in a typed array (no boxing for hundreds of thousands of values). */
export class SampleBuffer {
  #data = new Float64Array(1024);
  #length = 0;

  push(value: number): void {
    if (this.#length === this.#data.length) {
      const bigger = new Float64Array(this.#data.length * 2);
      bigger.set(this.#data);
      this.#data = bigger;
    }
    this.#data[this.#length++] = value;
  }

  get length(): number {
    return this.#length;
  }

  values(): Float64Array {
    return this.#data.subarray(0, this.#length);
  }
}
