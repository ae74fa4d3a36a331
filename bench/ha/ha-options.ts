/** The command line of `npm run bench:ha` (bench/run-ha.ts): the full run, and `--quick` for the smoke test. */
import type { HaBenchOptions } from './ha-bench.js';

export const HA_USAGE = `Usage: npm run bench:ha [-- options]

  --quick            one repetition of 1 s windows, 1 s before the kill (about 40 s)
  --seconds <s>      each measured window (full: 5)
  --reps <n>         repetitions of the set-ups (full: 3)
  --no-durable       Redis without append-only files (default: appendonly yes, appendfsync always)
  --save <file>      raw results as JSON (default .artifacts/bench-ha.json)
`;

/** The options of `npm run bench:ha`; undefined for --help. */
export function parseHaOptions(argv: string[]): (Omit<HaBenchOptions, 'log'> & { save: string }) | undefined {
  if (argv.includes('--help')) return undefined;
  const quick = argv.includes('--quick');
  const value = (name: string) => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const number = (name: string, fallback: number) => {
    const given = value(name);
    const parsed = given === undefined ? fallback : Number(given);
    if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${name} needs a positive number, got "${given}".`);
    return parsed;
  };
  return {
    seconds: number('--seconds', quick ? 1 : 5),
    reps: number('--reps', quick ? 1 : 3),
    durable: !argv.includes('--no-durable'),
    failoverBefore: quick ? 1 : 3,
    save: value('--save') ?? '.artifacts/bench-ha.json',
  };
}
