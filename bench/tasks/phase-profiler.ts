/**
 * CPU profiles of the task benchmark's phases, one file each, when `BENCH_TASKS_CPU_PROF` names a
 * directory: the V8 profiler of this very process (node:inspector), started and stopped around the
 * measured seconds only, so a profile holds one phase (creating tasks with Redis, say) and nothing
 * of the others or of start-up. `bench/profile/summarize-profile.ts` turns one into µs per operation.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/** Runs `work`, profiled into `<dir>/<name>.cpuprofile` when the environment asks for it. */
export async function profilePhase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_TASKS_CPU_PROF;
  if (!dir) return work();
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    return result;
  } finally {
    session.disconnect();
  }
}
