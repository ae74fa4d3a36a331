/**
 * `npm run bench`: Baton against the official TypeScript SDK v2, the official Python SDK, FastMCP
 * and the bare-Koa floor, side by side on loopback, then the memory check and the engine micro-benchmarks (the middle round's steps, and
 * every flow's round by round); saves the raw results, writes docs/benchmarks.md (full mode) and
 * ends with one line `bench: N passed, N failed`, N counting the target x flow combinations whose
 * every run completed without an error (a phase that fails outright counts as one more failure).
 * `npm run bench -- --help` lists the options.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { estimatedSeconds, parseBenchOptions, USAGE, type BenchOptions } from './bench-options.js';
import { pinCores } from './cpu-pinning.js';
import { runMemoryCheck, type MemoryResult } from './memory-check.js';
import type { MicroResult } from './micro/engine-steps.js';
import { runMicroProcess } from './micro/micro-process.js';
import { barLines } from './report/bar.js';
import { machineInfo } from './report/machine-info.js';
import { markdownReport, type BenchReport } from './report/markdown-report.js';
import { writeFormatted } from './report/write-report.js';
import { combinations } from './report/summary.js';
import { runMatrix, type RunRecord } from './run-matrix.js';
import { measureTaskThroughput, type TaskThroughput } from './tasks/task-throughput.js';
import { loadRun, saveRun } from './saved-run.js';
import { preparePythonEnv } from './targets/python-env.js';
import { isPythonTarget } from './targets/target-catalogue.js';
import { killAllTargets, spawnTarget, type SpawnOptions, type TargetHandle } from './targets/target-handle.js';
import { redisUsageText } from './tasks/redis-usage.js';

function log(line: string): void {
  process.stdout.write(`bench: ${line}\n`);
}

function describeRun(record: RunRecord): string {
  const head = `${record.target.padEnd(10)} ${record.flow.padEnd(14)} c=${String(record.concurrency).padEnd(3)} rep ${record.rep}`;
  if (record.failure || !record.result) return `${head}  FAILED: ${record.failure ?? 'no result'}`;
  const r = record.result;
  const cpu = record.serverCpuMicrosPerRequest;
  return (
    `${head}  ${r.flowsPerSecond.toFixed(0).padStart(6)} flows/s ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s` +
    `  p50 ${r.requestLatencyMs.p50.toFixed(2)} p99 ${r.requestLatencyMs.p99.toFixed(2)} ms` +
    `  server ${cpu === undefined ? '–' : cpu.toFixed(0)} µs/req  state ≤${r.stateSizes.max} B` +
    (r.errors ? `  ${r.errors} ERRORS: ${r.errorSamples.join('; ')}` : '')
  );
}

/**
 * The Python the Python targets need (made on first use); when it cannot be had, those targets
 * are left out of this run with one line that says why, and the report says so too.
 */
function preparePython(options: BenchOptions): {
  python?: string;
  version?: string;
  skipped?: BenchReport['skipped'];
} {
  const wanted = options.targets.filter(isPythonTarget);
  if (wanted.length === 0) return {};
  const env = preparePythonEnv(log);
  if ('python' in env) return { python: env.python, version: env.version };
  log(`skipping the Python targets (${wanted.join(', ')}): ${env.skipped}`);
  options.targets = options.targets.filter((kind) => !isPythonTarget(kind));
  return { skipped: { targets: wanted, reason: env.skipped } };
}

async function startTargets(options: BenchOptions, spawnOptions: SpawnOptions): Promise<TargetHandle[]> {
  // One at a time: on two cores, parallel start-ups only slow each other down.
  const targets: TargetHandle[] = [];
  for (const kind of options.targets) {
    const target = await spawnTarget(kind, spawnOptions);
    log(`${kind} target ready at ${target.url} (pid ${target.pid})`);
    targets.push(target);
  }
  return targets;
}

async function measureMemory(options: BenchOptions, serverCpus: string | undefined, failures: string[]) {
  log(`memory check, ${options.memoryFlows} three-question flows on a fresh Baton…`);
  let memory: MemoryResult | undefined;
  try {
    memory = await runMemoryCheck({
      flows: options.memoryFlows,
      warmupFlows: options.memoryWarmupFlows,
      concurrency: 16,
      maxSeconds: options.memoryMaxSeconds,
      ...(serverCpus ? { cpus: serverCpus } : {}),
    });
  } catch (error) {
    failures.push(`memory check: ${(error as Error).message}`);
    return undefined;
  }
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  log(
    `RSS ${mb(memory.afterWarmup.rss)} MB after warm-up, ${mb(memory.afterFlows.rss)} MB after ${memory.flows} flows ` +
      `(${mb(memory.afterFlows.rss - memory.afterWarmup.rss)} MB), ${memory.errors} errors`,
  );
  if (memory.errors > 0) failures.push(`memory check: ${memory.errors} errors (${memory.errorSamples.join('; ')})`);
  if (memory.flows < options.memoryFlows) {
    log(
      `memory check stopped after ${options.memoryMaxSeconds} s with ${memory.flows} of ${options.memoryFlows} flows`,
    );
  }
  return memory;
}

async function measureMicro(
  options: BenchOptions,
  serverCpus: string | undefined,
  failures: string[],
): Promise<MicroResult | undefined> {
  try {
    const micro = await runMicroProcess(
      {
        batches: options.microBatches,
        batchMs: options.microBatchMs,
        flowBatchMs: options.microFlowBatchMs,
        flows: options.flows.map((flow) => flow.label),
      },
      serverCpus,
    );
    log(`micro-benchmarks in a fresh process with the V8 settings ${micro.v8Settings?.join(' ') || '(none)'}`);
    for (const step of [...micro.steps, ...micro.extras]) {
      log(`micro ${step.step.padEnd(20)} ${step.medianMicros.toFixed(1).padStart(7)} µs/op`);
    }
    for (const flow of micro.flows ?? []) {
      const rounds = flow.rounds.map((r) => `${r.kind} ${r.sum.toFixed(1)}`).join(' + ');
      log(
        `micro steps ${flow.flow.padEnd(14)} ${rounds} = ${flow.sum.toFixed(1)} µs over ${flow.requests} requests, ` +
          `${flow.perRequest.toFixed(1)} µs/request`,
      );
    }
    return micro;
  } catch (error) {
    failures.push(`micro-benchmarks: ${(error as Error).message}`);
    return undefined;
  }
}

async function measureTasks(
  options: BenchOptions,
  redisCpus: string | undefined,
  failures: string[],
): Promise<TaskThroughput[] | undefined> {
  try {
    const results = await measureTaskThroughput(options.quick ? 1 : 5, redisCpus);
    const rate = (f: { perSecond: number; p99Ms: number }, what: string) =>
      `${f.perSecond.toFixed(0)} ${what}/s (p99 ${f.p99Ms.toFixed(1)} ms)`;
    for (const r of results) {
      log(`tasks (${r.store}) ${rate(r.creates, 'created')}, ${rate(r.gets, 'tasks/get')}`);
      for (const [what, figures] of [
        ['create', r.creates],
        ['tasks/get', r.gets],
      ] as const) {
        if (figures.redisPerOp) log(`tasks (${r.store}) Redis per ${what}: ${redisUsageText(figures.redisPerOp)}`);
      }
      const floors = r.floor
        ? ([
            ['BullMQ job added and completed', r.floor.jobs],
            ['HMGET', r.floor.hashReads],
            ['job behind bare Koa', r.floor.httpJobs],
            ['HMGET behind bare Koa', r.floor.httpHashReads],
          ] as const)
        : [];
      for (const [what, figures] of floors) {
        if (!figures) continue;
        const cpu = figures.cpuMicrosPerOp === undefined ? '' : `, ${figures.cpuMicrosPerOp.toFixed(0)} µs CPU`;
        log(`tasks floor: ${rate(figures, what)}${cpu}`);
        if (figures.redisPerOp) log(`tasks floor: Redis per ${what}: ${redisUsageText(figures.redisPerOp)}`);
      }
      const floorErrors = floors.reduce((sum, [, figures]) => sum + (figures?.errors ?? 0), 0);
      const errors = r.creates.errors + r.gets.errors + floorErrors;
      if (errors > 0) failures.push(`tasks (${r.store}): ${errors} errors`);
    }
    return results;
  } catch (error) {
    failures.push(`tasks: ${(error as Error).message}`);
    return undefined;
  }
}

async function measure(options: BenchOptions): Promise<BenchReport> {
  const started = performance.now();
  const pinning = pinCores();
  const machine = machineInfo(pinning.description);
  log(
    `${options.quick ? 'quick' : 'full'} run, about ${estimatedSeconds(options)} s; ${pinning.description}; ` +
      `load average ${machine.loadAtStart.toFixed(2)} on ${machine.cpus} cores`,
  );
  const phaseFailures: string[] = [];
  let records: RunRecord[] = [];
  let targets: TargetHandle[] = [];
  const { python, version, skipped } = preparePython(options);
  if (version) machine.python = version;
  try {
    targets = await startTargets(options, {
      ...(pinning.serverCpus ? { cpus: pinning.serverCpus } : {}),
      ...(python ? { python } : {}),
    });
    records = await runMatrix(targets, options, (record) => log(describeRun(record)));
  } catch (error) {
    phaseFailures.push(`matrix: ${(error as Error).message}`);
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }
  const memory = options.memoryFlows > 0 ? await measureMemory(options, pinning.serverCpus, phaseFailures) : undefined;
  const micro = options.micro ? await measureMicro(options, pinning.serverCpus, phaseFailures) : undefined;
  const tasks = await measureTasks(options, pinning.serverCpus, phaseFailures);
  machine.loadAtEnd = os.loadavg()[0]!;
  return {
    options,
    machine,
    records,
    combinations: combinations(records),
    ...(memory ? { memory } : {}),
    ...(micro ? { micro } : {}),
    ...(tasks ? { tasks } : {}),
    ...(skipped ? { skipped } : {}),
    seconds: (performance.now() - started) / 1000,
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    phaseFailures,
  };
}

/** Prints the bar and the failures, writes the report, and returns the number of failures. */
async function finish(report: BenchReport, options: BenchOptions): Promise<number> {
  for (const line of barLines(report.records, report.memory, report.micro)) {
    const verdict = line.met === undefined ? '' : line.met ? ' met' : ' NOT MET';
    log(`bar ${line.criterion}: ${line.measured ?? '–'} (bar ${line.bar})${verdict}`);
  }
  for (const failure of report.phaseFailures) log(`FAILED ${failure}`);
  for (const combo of report.combinations.filter((c) => !c.passed)) {
    log(`FAILED ${combo.target} × ${combo.flow}: ${combo.problems.join('; ')}`);
  }
  if (options.output) {
    await writeFormatted(options.output, markdownReport(report));
    log(`wrote ${options.output}`);
  }
  const expected = report.options.targets.length * report.options.flows.length;
  const passed = report.combinations.filter((c) => c.passed).length;
  const missing = Math.max(0, expected - report.combinations.length);
  const failed = report.combinations.length - passed + missing + report.phaseFailures.length;
  log(`${passed} passed, ${failed} failed`);
  return failed;
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseBenchOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  let report: BenchReport;
  if (options.from) {
    report = loadRun(options.from);
  } else {
    report = await measure(options);
    saveRun(options.save, report);
    log(`saved the raw results to ${options.save}; finished in ${report.seconds.toFixed(0)} s`);
  }
  return (await finish(report, options)) > 0 ? 1 : 0;
}

main().then(
  (code) => {
    killAllTargets();
    process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error)?.stack ?? String(error)}\n`);
    killAllTargets();
    process.stdout.write('bench: 0 passed, 1 failed\n');
    process.exit(1);
  },
);
