/**
 * Two builds of Baton side by side: `npm run bench:compare -- <baseline dist/> [options]`. Each
 * build serves the bench tools from its own process (its own `bench/targets/target-process.js`),
 * both pinned to the server core, and the load generator alternates between them in short
 * windows, so slow drifts of the machine's load fall on both alike. The answer is the median of
 * the paired ratios (this build's CPU per request, flows per second and p99 over the baseline's,
 * window by window). The order within a pair alternates (A B, then B A): a build measured second
 * in a pair runs on a machine the first has just warmed (caches, the generator's heap, the
 * other engineers' load as it ramps), so a fixed order would bias every pair the same way.
 *
 * The windows of one flow and concurrency are split among fresh process pairs (`--processes`):
 * one process of a build can run faster or slower than the next for its whole life, and three
 * 40-window runs of the same two builds on one process pair each read 0.736x, 0.766x and 0.811x
 * for one cell, each with an interval over its windows that left the others out. Over the pairs'
 * own medians, the interval counts that luck too.
 *
 * Measuring two builds in one process misleads: one build's garbage is collected on the other's
 * time. A baseline is a built tree of another commit, e.g.
 *   mkdir /tmp/base && git archive <rev> | tar -x -C /tmp/base
 *   ln -s "$PWD/node_modules" /tmp/base/node_modules && (cd /tmp/base && npm run build)
 *   npm run bench:compare -- /tmp/base/dist --flows parallel,three-question
 */
import os from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pinCores } from './cpu-pinning.js';
import { BENCH_FLOWS, flowByLabel, type BenchFlow } from './flows/bench-flows.js';
import { measureRun } from './run-matrix.js';
import { spawnTarget, type TargetHandle } from './targets/target-handle.js';
import { startTelemetryReceiver } from './targets/telemetry-receiver.js';
import { freePort } from './targets/free-port.js';

export interface CompareOptions {
  baseline: string;
  flows: BenchFlow[];
  concurrency: number[];
  windows: number;
  windowMs: number;
  /**
   * Fresh process pairs per flow and concurrency: the windows are split among them. One process
   * of a build can run faster or slower than the next for its whole life (what V8 chose to
   * optimise and inline, where its heap landed); with one pair, every window shares that luck.
   */
  processes: number;
  /** Run this build with an OpenTelemetry SDK registered and a no-op exporter (noop-telemetry.ts). */
  telemetry: boolean;
  /**
   * Run this build with the OpenTelemetry SDK `baton serve` starts, every span exported over
   * OTLP/HTTP to a receiver of this process and its metrics scraped each second (telemetry-receiver.ts).
   */
  otlp: boolean;
  /**
   * With `otlp`: the metrics pushed over OTLP to the same receiver each second, as `baton serve`
   * sends them with traces on and no BATON_METRICS_PORT (otlp-metric-reader.ts), instead of
   * scraped (the baseline must know the option: a build from the commit that added it on).
   */
  otlpMetrics: boolean;
  /**
   * Give the baseline the same telemetry or console as this build, to measure what a change does
   * to their cost (the baseline must know the option: a build from 951dc92 on).
   */
  both: boolean;
  /** Run this build with the operator's console on (as `baton dev` has it): its routes, its task history. */
  console: boolean;
  /**
   * Variables set in the baseline's process only, after the rest: with the same build on both
   * sides, two settings of it side by side (one sampler against another, window by window).
   */
  baselineEnv: Record<string, string>;
}

export const COMPARE_USAGE = `Usage: npm run bench:compare -- <baseline dist/> [options]

  --flows <list>        ${BENCH_FLOWS.map((f) => f.label).join(',')} (default: all)
  --concurrency <list>  virtual clients, one comparison each (default 16; e.g. 16,64)
  --windows <n>         alternating windows per build and flow (default 10; pairs alternate A B, B A)
  --seconds <s>         length of one window (default 2)
  --processes <n>       fresh process pairs per flow and concurrency, the windows split among them
                        (default 5, fewer with fewer windows); the interval is over the pairs from 5 on
  --telemetry           this build with telemetry on (spans and metrics, exported nowhere)
  --otlp                this build with telemetry exported as in production: the SDK started from
                        OTEL_* (as \`baton serve\` does) posting to an OTLP/HTTP receiver here, its
                        Prometheus endpoint scraped each second (OTEL_TRACES_SAMPLER etc. pass through)
  --otlp-metrics        with --otlp: the metrics pushed over OTLP to the receiver each second instead
                        (OTEL_METRIC_EXPORT_INTERVAL=1000 unless set), as with no BATON_METRICS_PORT
  --console             this build with the operator's console on (GET /console, loopback operators)
  --both                the baseline too with --telemetry, --otlp or --console: what a change does
                        to their cost
  --baseline-env <NAME=VALUE>
                        set in the baseline's process only (repeat for more): give this build's
                        own dist/ as the baseline to put two settings side by side, e.g.
                        --otlp --both --baseline-env OTEL_TRACES_SAMPLER=always_off
`;

export function parseCompareOptions(argv: string[]): CompareOptions {
  const [baseline, ...rest] = argv;
  if (!baseline || baseline.startsWith('--')) throw new Error(COMPARE_USAGE);
  const value = (name: string) => {
    const index = rest.indexOf(name);
    return index === -1 ? undefined : rest[index + 1];
  };
  // flowByLabel refuses an unknown label, naming the known ones.
  const flows = (value('--flows') ?? BENCH_FLOWS.map((f) => f.label).join(','))
    .split(',')
    .map((label) => flowByLabel(label.trim()));
  const number = (name: string, fallback: number) => {
    const text = value(name);
    const parsed = text === undefined ? fallback : Number(text);
    if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${name} needs a positive number\n${COMPARE_USAGE}`);
    return parsed;
  };
  const concurrency = (value('--concurrency') ?? '16').split(',').map((text) => {
    const parsed = Number(text.trim());
    if (!Number.isInteger(parsed) || parsed <= 0) {
      throw new Error(`--concurrency needs positive whole numbers\n${COMPARE_USAGE}`);
    }
    return parsed;
  });
  const windows = number('--windows', 10);
  const processes = number('--processes', Math.min(5, windows));
  if (!Number.isInteger(windows) || !Number.isInteger(processes) || processes > windows) {
    throw new Error(`--windows and --processes need whole numbers, at least one window a pair\n${COMPARE_USAGE}`);
  }
  const baselineEnv: Record<string, string> = {};
  rest.forEach((arg, index) => {
    if (arg !== '--baseline-env') return;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(rest[index + 1] ?? '');
    if (!match) throw new Error(`--baseline-env needs NAME=VALUE\n${COMPARE_USAGE}`);
    baselineEnv[match[1]!] = match[2]!;
  });
  return {
    baseline: resolve(baseline),
    flows,
    concurrency,
    windows,
    windowMs: number('--seconds', 2) * 1000,
    processes,
    telemetry: rest.includes('--telemetry'),
    otlp: rest.includes('--otlp') || rest.includes('--otlp-metrics'),
    otlpMetrics: rest.includes('--otlp-metrics'),
    console: rest.includes('--console'),
    both: rest.includes('--both'),
    baselineEnv,
  };
}

/** How many of `windows` each of `processes` pairs runs: as even as can be, the larger blocks first. */
export function blockSizes(windows: number, processes: number): number[] {
  const size = Math.floor(windows / processes);
  return Array.from({ length: processes }, (_, pair) => size + (pair < windows % processes ? 1 : 0));
}

/** Fewest process pairs whose medians the interval is taken over; with fewer, over the windows. */
export const MIN_PAIRS_FOR_INTERVAL = 5;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * A distribution-free confidence interval for the median of `values`: the k-th smallest and k-th
 * largest value, with k the largest for which the median lies outside with probability at most
 * 1 − `level` (each value falls either side of the true median with probability ½, so how many
 * fall below it is Binomial(n, ½)). No resampling and no assumption about the shape of the
 * noise, which on these VMs is neither normal nor symmetric. Undefined when too few values
 * reach `level` (fewer than 5 for 90%). `coverage` is the level the interval actually has.
 */
export function medianInterval(
  values: number[],
  level = 0.9,
): { low: number; high: number; coverage: number } | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  // below[j] = P(Binomial(n, ½) ≤ j), built term by term.
  let term = 0.5 ** n;
  let below = term;
  let best: { j: number; miss: number } | undefined;
  for (let j = 0; j < n >> 1; j++) {
    // The interval [x(j+1), x(n−j)] misses the median with probability 2 · P(X ≤ j).
    if (2 * below > 1 - level) break;
    best = { j, miss: 2 * below };
    term = (term * (n - j)) / (j + 1);
    below += term;
  }
  if (best === undefined) return undefined;
  return { low: sorted[best.j]!, high: sorted[n - 1 - best.j]!, coverage: 1 - best.miss };
}

/** What one window measured on one build. */
export interface WindowResult {
  cpuMicrosPerRequest: number;
  flowsPerSecond: number;
  p99Ms: number;
}

async function measureWindow(
  target: TargetHandle,
  flow: BenchFlow,
  concurrency: number,
  windowMs: number,
): Promise<WindowResult> {
  const record = await measureRun(target, flow, concurrency, 0, { warmupMs: 200, durationMs: windowMs });
  if (record.serverCpuMicrosPerRequest === undefined || !record.result || record.result.errors) {
    throw new Error(
      `${target.kind} failed on ${flow.label}: ${record.failure ?? record.result?.errorSamples.join('; ')}`,
    );
  }
  return {
    cpuMicrosPerRequest: record.serverCpuMicrosPerRequest,
    flowsPerSecond: record.result.flowsPerSecond,
    p99Ms: record.result.requestLatencyMs.p99,
  };
}

/**
 * Which build goes first in pair `window`: the baseline in even pairs, this build in odd ones
 * (A B B A A B …), so neither always runs on a machine the other has just warmed.
 */
export function baselineFirst(window: number): boolean {
  return window % 2 === 0;
}

/**
 * One flow's line: for the CPU per request, flows per second and p99, the baseline's and this
 * build's medians and the median of the paired ratios (this build ÷ the baseline, window by window),
 * with its confidence interval (medianInterval) and the spread of the ratios. `pairOf` names the
 * process pair each window ran on: with MIN_PAIRS_FOR_INTERVAL pairs or more, the interval is
 * taken over the pairs' own medians, since windows of one pair share its luck and are not
 * independent draws; with fewer, over the windows, which understates the noise between runs.
 */
export function comparisonLine(
  label: string,
  before: WindowResult[],
  after: WindowResult[],
  pairOf: number[] = after.map(() => 0),
): string {
  const pairs = [...new Set(pairOf)];
  const measure = (name: string, pick: (w: WindowResult) => number, unit: string, digits: number) => {
    const ratios = after.map((w, i) => pick(w) / pick(before[i]!));
    const spread = `${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`;
    const value = (windows: WindowResult[]) => median(windows.map(pick)).toFixed(digits);
    const byPair = pairs.length >= MIN_PAIRS_FOR_INTERVAL;
    const interval = byPair
      ? medianInterval(pairs.map((pair) => median(ratios.filter((_, i) => pairOf[i] === pair))))
      : medianInterval(ratios);
    const over = byPair
      ? `${pairs.length} process pairs`
      : `${ratios.length} windows of ${pairs.length === 1 ? 'one process pair' : `${pairs.length} process pairs`}`;
    const confidence = interval
      ? ` [${interval.low.toFixed(3)}–${interval.high.toFixed(3)} at ${Math.round(interval.coverage * 1000) / 10}% over ${over}]`
      : '';
    return `${name} ${value(before)} → ${value(after)}${unit} ${median(ratios).toFixed(3)}x${confidence} (${spread})`;
  };
  return [
    label.padEnd(20),
    measure('CPU', (w) => w.cpuMicrosPerRequest, ' µs/req', 1),
    measure('flows/s', (w) => w.flowsPerSecond, '', 0),
    measure('p99', (w) => w.p99Ms, ' ms', 2),
  ].join('  ');
}

async function main(): Promise<void> {
  const options = parseCompareOptions(process.argv.slice(2));
  const { serverCpus, description } = pinCores();
  process.stderr.write(`compare: ${description}\n`);
  const baselineHandle = (await import(
    pathToFileURL(resolve(options.baseline, 'bench/targets/target-handle.js')).href
  )) as { spawnTarget: typeof spawnTarget };
  const spawnOptions = serverCpus ? { cpus: serverCpus } : {};
  const receiver = options.otlp ? await startTelemetryReceiver() : undefined;
  /** The two builds, and what stops the scrape of this build's metrics (with --otlp). */
  const spawnPair = async (): Promise<[TargetHandle, TargetHandle, () => void]> => {
    const scraped = receiver && !options.otlpMetrics;
    const metricsPort = scraped ? await freePort() : undefined;
    const baselinePort = scraped && options.both ? await freePort() : undefined;
    const env = (port: number | undefined) => ({
      // Unset unless asked for: this process's own BENCH_TELEMETRY would otherwise reach the
      // baseline too (BENCH_TELEMETRY=traces once turned telemetry on in both, and measured 1.0x).
      BENCH_TELEMETRY: '',
      BENCH_CONSOLE: '',
      // BENCH_TELEMETRY=context,traces,metrics picks parts (noop-telemetry.ts); --telemetry is all.
      ...(options.telemetry ? { BENCH_TELEMETRY: process.env.BENCH_TELEMETRY ?? 'all' } : {}),
      ...(receiver
        ? {
            BENCH_TELEMETRY: 'sdk',
            BENCH_METRICS_PORT: port === undefined ? '' : String(port),
            OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
            ...(options.otlpMetrics
              ? { OTEL_METRIC_EXPORT_INTERVAL: process.env.OTEL_METRIC_EXPORT_INTERVAL ?? '1000' }
              : {}),
          }
        : {}),
      ...(options.console ? { BENCH_CONSOLE: '1' } : {}),
    });
    const plain = { BENCH_TELEMETRY: '', BENCH_CONSOLE: '' };
    const pair = await bothOrNeither(
      baselineHandle.spawnTarget('baton', {
        ...spawnOptions,
        env: { ...(options.both ? env(baselinePort) : plain), ...options.baselineEnv },
      }),
      () => spawnTarget('baton', { ...spawnOptions, env: env(metricsPort) }),
    );
    const scrapes = [metricsPort, baselinePort].flatMap((port) =>
      receiver && port !== undefined ? [receiver.scrape(`http://127.0.0.1:${port}/metrics`)] : [],
    );
    return [...pair, () => scrapes.forEach((stop) => stop())];
  };
  process.stdout.write(`load average at start: ${loadAverage()}\n`);
  process.stdout.write(
    `each: baseline median → this build median, this ÷ baseline [a 90% or better confidence interval of that median] (min–max over windows); ${options.windows} windows on ${options.processes} fresh process pairs\n`,
  );
  for (const concurrency of options.concurrency) {
    for (const flow of options.flows) {
      const before: WindowResult[] = [];
      const after: WindowResult[] = [];
      const pairOf: number[] = [];
      for (const [pair, size] of blockSizes(options.windows, options.processes).entries()) {
        const [baseline, current, stopScrape] = await spawnPair();
        try {
          // Both builds warm up (V8 compiles on helper threads for a while) before any window counts,
          // on every flow of the run and this one last: a server runs several tools, and a process
          // that ran one machine alone could have its code optimised for that machine only.
          for (const target of [baseline, current]) {
            for (const other of options.flows) {
              if (other !== flow) await measureWindow(target, other, concurrency, 1000);
            }
            await measureWindow(target, flow, concurrency, 2000);
          }
          for (let i = 0; i < size; i++) {
            const window = pairOf.length;
            if (baselineFirst(window)) {
              before.push(await measureWindow(baseline, flow, concurrency, options.windowMs));
              after.push(await measureWindow(current, flow, concurrency, options.windowMs));
            } else {
              after.push(await measureWindow(current, flow, concurrency, options.windowMs));
              before.push(await measureWindow(baseline, flow, concurrency, options.windowMs));
            }
            pairOf.push(pair);
          }
        } finally {
          stopScrape();
          await Promise.all([baseline.stop(), current.stop()]);
        }
      }
      process.stdout.write(`${comparisonLine(`${flow.label} c=${concurrency}`, before, after, pairOf)}\n`);
    }
  }
  if (receiver) {
    const { batches, bytes } = receiver.received();
    process.stdout.write(`OTLP receiver: ${batches} batches, ${(bytes / 1e6).toFixed(1)} MB\n`);
    await receiver.close();
  }
  process.stdout.write(`load average at end: ${loadAverage()}\n`);
}

/** Spawns the baseline, then this build; if the second fails, the first is stopped, not left running. */
async function bothOrNeither(
  first: Promise<TargetHandle>,
  second: () => Promise<TargetHandle>,
): Promise<[TargetHandle, TargetHandle]> {
  const a = await first;
  try {
    return [a, await second()];
  } catch (error) {
    await a.stop();
    throw error;
  }
}

/** The machine's 1, 5 and 15 minute load averages: other work on the machine shows here. */
function loadAverage(): string {
  return os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
}

const invokedAs = process.argv[1] ?? '';
if (invokedAs.endsWith('compare-builds.js') || invokedAs.endsWith('compare-builds.ts')) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
