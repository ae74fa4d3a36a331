/**
 * A small timing harness for the micro-benchmarks: each step runs in batches sized to take a few
 * milliseconds, with its inputs prepared outside the timed loop (so a step that consumes its
 * input, like `send`, is timed alone), and reports the median µs per operation with the range
 * over batches. Time is the process's CPU time (user + system), not the wall clock: on a shared
 * machine a batch preempted by other work would otherwise count the other work too.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { median } from '../load/percentiles.js';

/**
 * A full collection between steps, so no step pays for the garbage of the one before (CPU time
 * counts V8's concurrent marking on its helper threads too). `--expose-gc` set at run time takes
 * effect in a new context.
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

export interface StepTiming {
  step: string;
  /** What the step does, for the report. */
  what: string;
  medianMicros: number;
  minMicros: number;
  maxMicros: number;
  batches: number;
  perBatch: number;
}

export interface StepSpec<T> {
  step: string;
  what: string;
  /** Prepares the inputs for `count` operations (not timed). */
  prepare: (count: number) => T;
  /** One operation on input `index`; may return a promise. */
  run: (input: T, index: number) => unknown;
}

export interface MeasureOptions {
  batches: number;
  /** How long one batch should take, roughly, in milliseconds. */
  batchMs: number;
}

/** Keeps results alive so the optimiser cannot drop the work. */
export let sink: unknown;

async function timeBatch<T>(spec: StepSpec<T>, count: number): Promise<number> {
  const input = spec.prepare(count);
  const first = spec.run(input, 0);
  const isAsync = first instanceof Promise;
  if (isAsync) await first;
  // The first operation warms the path and is not timed.
  const start = process.cpuUsage();
  for (let i = 1; i < count; i++) {
    const result = spec.run(input, i);
    sink = isAsync ? await result : result;
  }
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / Math.max(1, count - 1);
}

export async function measureStep<T>(spec: StepSpec<T>, options: MeasureOptions): Promise<StepTiming> {
  // A full collection first, so this step does not pay for the garbage of the one before; then
  // probes to size the batches (the first runs cold, any may be preempted), then a warm-up.
  collectGarbage();
  const probes = [await timeBatch(spec, 51), await timeBatch(spec, 51), await timeBatch(spec, 51)];
  const probe = Math.min(...probes);
  const perBatch = Math.max(20, Math.min(5_000, Math.round((options.batchMs * 1000) / Math.max(probe, 0.05))));
  // Thirty batches' time (0.6 s in a full run), to outlast what the forced collection sets off: V8
  // keeps compiling on helper threads for a while, and right after a forced full collection a
  // whole engine round ran 2.5-4x slower (CPU 130-220 µs against 50) for its next 2,000 runs,
  // about 0.3 s. Timed straight after one (as this harness once did), FlowEngine.run read 146-377
  // µs; timed after this warm-up, 45-57 µs (same process, same machine).
  const warmUntil = performance.now() + options.batchMs * 30;
  do await timeBatch(spec, perBatch);
  while (performance.now() < warmUntil);
  const samples: number[] = [];
  for (let b = 0; b < options.batches; b++) samples.push(await timeBatch(spec, perBatch));
  return {
    step: spec.step,
    what: spec.what,
    medianMicros: median(samples),
    minMicros: Math.min(...samples),
    maxMicros: Math.max(...samples),
    batches: options.batches,
    perBatch,
  };
}
