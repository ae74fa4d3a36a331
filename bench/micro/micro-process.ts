/**
 * The engine micro-benchmarks in a fresh process of their own, pinned where the targets run and
 * started with the V8 settings Baton runs with, as a Baton server would be. Run in the bench's own
 * process they timed the engine on the load generator's heap: after the load runs its old
 * generation is large and every scavenge costs more, and `FlowEngine.run` read 63–185 µs there
 * against 50–52 µs in a fresh process, in the same minutes on the same machine.
 *
 * `runMicroProcess` spawns this file; the child measures, writes the MicroResult as JSON on
 * stdout and exits.
 */
import { execFile } from 'node:child_process';
import { PACKAGE_ROOT } from '../../server/package-root.js';
import { V8_SETTINGS } from '../../server/v8-settings.js';
import { flowByLabel } from '../flows/bench-flows.js';
import { nodeCommand, scriptArgs } from '../node-command.js';
import { runEngineSteps, type MicroResult } from './engine-steps.js';
import { measureAllFlowSteps } from './flow-round-steps.js';
import type { MeasureOptions } from './measure.js';

export interface MicroProcessOptions extends MeasureOptions {
  /** Batch length for the per-flow round steps. */
  flowBatchMs: number;
  /** The flows whose rounds are measured (labels). */
  flows: string[];
}

const SCRIPT = scriptArgs(new URL('./micro-process', import.meta.url));

/** Runs the micro-benchmarks in a child process (pinned to `cpus` with taskset when given). */
export function runMicroProcess(options: MicroProcessOptions, cpus?: string): Promise<MicroResult> {
  const nodeArgs = [...V8_SETTINGS, ...SCRIPT, JSON.stringify(options)];
  const [command, args] = nodeCommand(nodeArgs, cpus);
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: PACKAGE_ROOT, env: { ...process.env, NODE_ENV: 'production' }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`the micro-benchmark process failed: ${stderr.trim() || error.message}`));
        else resolve(JSON.parse(stdout) as MicroResult);
      },
    );
  });
}

async function measureInThisProcess(options: MicroProcessOptions): Promise<MicroResult> {
  const micro = await runEngineSteps(options);
  micro.flows = await measureAllFlowSteps(options.flows.map(flowByLabel), { ...options, batchMs: options.flowBatchMs });
  // Started with them on the command line (runMicroProcess): the report says which.
  micro.v8Settings = process.execArgv.filter((arg) => V8_SETTINGS.includes(arg));
  return micro;
}

const invokedAs = process.argv[1] ?? '';
if (invokedAs.endsWith('micro-process.js') || invokedAs.endsWith('micro-process.ts')) {
  measureInThisProcess(JSON.parse(process.argv[2] ?? '{}') as MicroProcessOptions).then(
    (micro) => process.stdout.write(JSON.stringify(micro)),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
