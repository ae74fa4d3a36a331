/**
 * The bench's command line. Two presets: the full run (the numbers for docs/benchmarks.md, about
 * 14 minutes on two cores) and `--quick` (CI: checks that every target and flow works end to
 * end in well under a minute, writes nothing). Every knob can be overridden.
 */
import { BENCH_FLOWS, flowByLabel, type BenchFlow } from './flows/bench-flows.js';
import { TARGET_KINDS, type TargetKind } from './targets/target-protocol.js';

export interface BenchOptions {
  quick: boolean;
  targets: TargetKind[];
  flows: BenchFlow[];
  concurrency: number[];
  /** Repetitions of the whole A B C sequence for each flow and concurrency. */
  reps: number;
  warmupMs: number;
  durationMs: number;
  /** Flows for the memory check (0 skips it) and the warm-up before it. */
  memoryFlows: number;
  memoryWarmupFlows: number;
  /** Upper bound on the memory check's duration, in seconds. */
  memoryMaxSeconds: number;
  micro: boolean;
  microBatches: number;
  microBatchMs: number;
  /** The batch length for every flow's rounds (bench/micro/flow-round-steps.ts): shorter in quick mode. */
  microFlowBatchMs: number;
  /** Where the report goes, or undefined to write none. */
  output: string | undefined;
  /** Where the raw results go (JSON), and a file to write the report from instead of measuring. */
  save: string;
  from: string | undefined;
}

export const USAGE = `Usage: npm run bench [-- options]

  --quick                 CI mode: short runs at c=16, small memory check, no report written
  --duration <s>          measured window of each run (full: 5, quick: 1)
  --warmup <s>            warm-up before each window (full: 1, quick: 0.5)
  --reps <n>              repetitions of the target sequence (full: 3, quick: 1)
  --concurrency <list>    virtual clients (full: 16,64; quick: 16)
  --flows <list>          ${BENCH_FLOWS.map((f) => f.label).join(',')} (default: all)
  --targets <list>        ${TARGET_KINDS.join(',')} (default: all)
  --memory-flows <n>      flows for the RSS check (full: 100000, quick: 2000; 0 skips it)
  --memory-seconds <s>    stop the RSS check after this long in any case (full: 240, quick: 20)
  --no-micro              skip the engine micro-benchmarks
  --output <file>         report file (full: docs/benchmarks.md); --no-output writes none
  --save <file>           raw results as JSON (default .artifacts/bench-results.json)
  --from <file>           write the report from saved results instead of measuring

Environment: BENCH_TARGET_NODE_ARGS adds Node options to every target process, for example
BENCH_TARGET_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile them under this load.
BENCH_TASKS_CPU_PROF=<dir> and BENCH_TASKS_HEAP_PROF=<dir> profile each phase of the task
benchmark on its own: CPU, and what it allocates (bench/tasks/phase-profiler.ts).
The Python targets run in a virtual environment the bench makes on first use (BENCH_PYTHON_VENV
names its directory; BENCH_PYTHON the Python to make it with, python3 by default).
`;

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function positive(name: string, value: string | undefined): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) throw new Error(`${name} needs a non-negative number, got "${value}".`);
  return number;
}

export function parseBenchOptions(argv: string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const options: BenchOptions = {
    quick,
    targets: [...TARGET_KINDS],
    flows: [...BENCH_FLOWS],
    // Quick mode checks that every target answers every flow; one concurrency does that, and the
    // slowest targets (the Python ones, a few hundred requests a second) still finish flows in its
    // short window on a busy CI machine.
    concurrency: quick ? [16] : [16, 64],
    reps: quick ? 1 : 3,
    warmupMs: quick ? 500 : 1000,
    durationMs: quick ? 1000 : 5000,
    memoryFlows: quick ? 2000 : 100_000,
    memoryWarmupFlows: quick ? 500 : 5000,
    memoryMaxSeconds: quick ? 20 : 240,
    micro: true,
    microBatches: quick ? 3 : 7,
    microBatchMs: quick ? 5 : 20,
    // Quick mode only checks that every round of every flow plays; its timings are not reported.
    microFlowBatchMs: quick ? 2 : 20,
    output: quick ? undefined : 'docs/benchmarks.md',
    save: '.artifacts/bench-results.json',
    from: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value.`);
      return next;
    };
    switch (flag) {
      case '--quick':
        break;
      case '--duration':
        options.durationMs = positive(flag, value()) * 1000;
        break;
      case '--warmup':
        options.warmupMs = positive(flag, value()) * 1000;
        break;
      case '--reps':
        options.reps = Math.max(1, Math.round(positive(flag, value())));
        break;
      case '--concurrency':
        options.concurrency = list(value()).map((c) => Math.max(1, Math.round(positive(flag, c))));
        break;
      case '--flows':
        options.flows = list(value()).map(flowByLabel);
        break;
      case '--targets':
        options.targets = list(value()).map((kind) => {
          if (!TARGET_KINDS.includes(kind as TargetKind)) throw new Error(`Unknown target "${kind}".`);
          return kind as TargetKind;
        });
        break;
      case '--memory-flows':
        options.memoryFlows = Math.round(positive(flag, value()));
        options.memoryWarmupFlows = Math.min(options.memoryWarmupFlows, Math.max(100, options.memoryFlows / 10));
        break;
      case '--memory-seconds':
        options.memoryMaxSeconds = positive(flag, value());
        break;
      case '--no-micro':
        options.micro = false;
        break;
      case '--output':
        options.output = value();
        break;
      case '--no-output':
        options.output = undefined;
        break;
      case '--save':
        options.save = value();
        break;
      case '--from':
        options.from = value();
        break;
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`Unknown option "${flag}".\n\n${USAGE}`);
    }
  }
  return options;
}

/** A rough estimate of the run time, in seconds, printed before starting. */
export function estimatedSeconds(options: BenchOptions, flowsPerSecondGuess = 600): number {
  const runs = options.targets.length * options.flows.length * options.concurrency.length * options.reps;
  const matrix = (runs * (options.warmupMs + options.durationMs + 150)) / 1000;
  const memory = Math.min(
    options.memoryMaxSeconds,
    (options.memoryFlows + options.memoryWarmupFlows) / flowsPerSecondGuess,
  );
  const micro = options.micro ? (options.quick ? 9 : 45) : 0;
  // Start-up and the warm-up of each target before the matrix (bench/run-matrix.ts).
  const warmUp = options.targets.length * 4;
  return Math.round(matrix + memory + micro + warmUp + 5);
}
