/**
 * Times spans of synchronous work inside a target process: the total µs and how many. The bench
 * reads the totals over its IPC channel before and after a measured window, as it reads the CPU
 * time, and divides by the requests in it. `performance.now()` costs about 0.05 µs a call, so a
 * timed span adds about 0.1 µs to each request of the target that runs it.
 */
import { performance } from 'node:perf_hooks';

export interface SpanTotals {
  micros: number;
  count: number;
}

export class SpanTimer {
  #micros = 0;
  #count = 0;

  /** Runs `work(input)` and counts its time, also when it throws (no closure made per call). */
  time<A, T>(work: (input: A) => T, input: A): T {
    const start = performance.now();
    try {
      return work(input);
    } finally {
      this.#add(start);
    }
  }

  /**
   * Times every call of `proto[name]` from now on (once per method). For a method that returns a
   * promise only the synchronous part is timed: the call up to its first wait.
   */
  timeMethod(proto: object, name: string): void {
    const methods = proto as Record<string, (...args: unknown[]) => unknown>;
    const original = methods[name]!;
    if (TIMED.has(original)) return;
    const add = this.#add;
    const timed = function (this: unknown, ...args: unknown[]) {
      const start = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        add(start);
      }
    };
    TIMED.add(timed);
    methods[name] = timed;
  }

  readonly #add = (start: number): void => {
    this.#micros += (performance.now() - start) * 1000;
    this.#count++;
  };

  totals(): SpanTotals {
    return { micros: this.#micros, count: this.#count };
  }
}

const TIMED = new WeakSet<object>();
