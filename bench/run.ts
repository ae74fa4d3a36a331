/**
 * `npm run bench`: Baton against the official SDK v2 and the bare-Koa floor, side by side on
 * loopback, then the memory check and the engine micro-benchmarks; writes docs/benchmarks.md
 * (full mode) and ends with one line `bench: N passed, N failed`, N counting the target x flow
 * combinations whose every run completed without an error (a phase that crashes counts as one
 * more failure). `npm run bench -- --help` lists the options.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { estimatedSeconds, parseBenchOptions, USAGE, type BenchOptions } from './bench-options.js';
import { pinCores } from './cpu-pinning.js';
import { runMemoryCheck, type MemoryResult } from './memory-check.js';
import { runEngineSteps, type MicroResult } from './micro/engine-steps.js';
import { barLines } from './report/bar.js';
import { machineInfo } from './report/machine-info.js';
import { markdownReport } from './report/markdown-report.js';
import { combinations } from './report/summary.js';
import { runMatrix, type RunRecord } from './run-matrix.js';
import { killAllTargets, spawnTarget, type TargetHandle } from './targets/target-handle.js';

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

function describeRun(record: RunRecord): string {
  const head = `${record.target.padEnd(5)} ${record.flow.padEnd(14)} c=${String(record.concurrency).padEnd(3)} rep ${record.rep}`;
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

async function startTargets(options: BenchOptions, serverCpus: string | undefined): Promise<TargetHandle[]> {
  // One at a time: on two cores, parallel tsx start-ups only slow each other down.
  const targets: TargetHandle[] = [];
  for (const kind of options.targets) {
    const target = await spawnTarget(kind, serverCpus ? { cpus: serverCpus } : {});
    log(`bench: ${kind} target ready at ${target.url} (pid ${target.pid})`);
    targets.push(target);
  }
  return targets;
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseBenchOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const started = performance.now();
  const pinning = pinCores();
  const machine = machineInfo(pinning.description);
  log(
    `bench: ${options.quick ? 'quick' : 'full'} run, about ${estimatedSeconds(options)} s; ${pinning.description}; ` +
      `load average ${os.loadavg()[0]!.toFixed(2)} on ${machine.cpus} cores`,
  );

  let crashed = 0;
  let records: RunRecord[] = [];
  let targets: TargetHandle[] = [];
  try {
    targets = await startTargets(options, pinning.serverCpus);
    records = await runMatrix(targets, options, (record) => log(`bench: ${describeRun(record)}`));
  } catch (error) {
    crashed++;
    log(`bench: the matrix stopped: ${(error as Error).message}`);
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }

  let memory: MemoryResult | undefined;
  if (options.memoryFlows > 0) {
    try {
      log(`bench: memory check, ${options.memoryFlows} three-question flows on a fresh Baton…`);
      memory = await runMemoryCheck({
        flows: options.memoryFlows,
        warmupFlows: options.memoryWarmupFlows,
        concurrency: 16,
        ...(pinning.serverCpus ? { cpus: pinning.serverCpus } : {}),
      });
      const growth = (memory.afterFlows.rss - memory.afterWarmup.rss) / 2 ** 20;
      log(
        `bench: RSS ${(memory.afterWarmup.rss / 2 ** 20).toFixed(1)} MB after warm-up, ` +
          `${(memory.afterFlows.rss / 2 ** 20).toFixed(1)} MB after ${memory.flows} flows (${growth.toFixed(1)} MB), ` +
          `${memory.errors} errors`,
      );
      if (memory.errors > 0 || memory.flows < options.memoryFlows) {
        crashed++;
        log(`bench: memory check had errors: ${memory.errorSamples.join('; ')}`);
      }
    } catch (error) {
      crashed++;
      log(`bench: memory check failed: ${(error as Error).message}`);
    }
  }

  let micro: MicroResult | undefined;
  if (options.micro) {
    try {
      micro = await runEngineSteps({ batches: options.microBatches, batchMs: options.microBatchMs });
      for (const step of [...micro.steps, ...micro.extras]) {
        log(`bench: micro ${step.step.padEnd(20)} ${step.medianMicros.toFixed(1).padStart(7)} µs/op`);
      }
    } catch (error) {
      crashed++;
      log(`bench: micro-benchmarks failed: ${(error as Error).stack ?? String(error)}`);
    }
  }

  machine.loadAtEnd = os.loadavg()[0]!;
  const combos = combinations(records);
  for (const line of barLines(records, memory)) {
    log(
      `bench: bar ${line.criterion}: ${line.measured ?? '–'} (bar ${line.bar}) ${line.met === undefined ? '' : line.met ? 'met' : 'NOT MET'}`,
    );
  }
  for (const combo of combos.filter((c) => !c.passed))
    log(`bench: FAILED ${combo.target} × ${combo.flow}: ${combo.problems.join('; ')}`);
  const expected = options.targets.length * options.flows.length;
  const missing = Math.max(0, expected - combos.length);
  const passed = combos.filter((c) => c.passed).length;
  const failed = combos.length - passed + missing + crashed;

  if (options.output) {
    const seconds = (performance.now() - started) / 1000;
    const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
    writeFileSync(
      options.output,
      markdownReport({ options, machine, records, combinations: combos, memory, micro, seconds, command }),
    );
    log(`bench: wrote ${options.output}`);
  }
  log(`bench: finished in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  log(`bench: ${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
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
