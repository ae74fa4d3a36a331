/**
 * `npm run bench:ha`: tasks and single-use rounds per second on one Redis, a Sentinel set and a
 * three-master cluster side by side, then a master's death with work in flight
 * (bench/ha/ha-bench.ts). Prints the tables for docs/benchmarks.md ("High availability") and saves
 * the raw results; `--quick` (the smoke test's mode) runs one short repetition.
 */
import os from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pinCores, type Pinning } from './cpu-pinning.js';
import { runHaBench } from './ha/ha-bench.js';
import { HA_USAGE, parseHaOptions } from './ha/ha-options.js';
import { haTables } from './ha/ha-report.js';
import { redisAvailable } from './redis/index.js';

function log(line: string): void {
  process.stdout.write(`bench-ha: ${line}\n`);
}

function pinned(pinning: Pinning): string {
  if (!pinning.serverCpus) return pinning.description;
  return `taskset: every Redis process on CPU ${pinning.serverCpus}, the clients and Baton (this process) on CPU ${pinning.generatorCpus}`;
}

async function main(): Promise<number> {
  const options = parseHaOptions(process.argv.slice(2));
  if (!options) {
    process.stdout.write(HA_USAGE);
    return 0;
  }
  if (!redisAvailable()) {
    log('needs redis-server and redis-cli (apt-get install redis-server)');
    return 1;
  }
  const pinning = pinCores();
  log(
    `${options.reps} repetitions of ${options.seconds} s windows, Redis ${options.durable ? 'durable (appendfsync always)' : 'without persistence'}; ` +
      `${pinned(pinning)}; load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} cores`,
  );
  const { save, ...benchOptions } = options;
  const report = await runHaBench({ ...benchOptions, redisCpus: pinning.serverCpus, log });
  mkdirSync(dirname(save), { recursive: true });
  writeFileSync(save, `${JSON.stringify(report, null, 1)}\n`);
  log(
    `saved the raw results to ${save}; ${report.seconds.toFixed(0)} s, load average ${report.loadAtEnd.toFixed(2)} at the end`,
  );
  process.stdout.write(`\n${haTables(report)}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench-ha: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
