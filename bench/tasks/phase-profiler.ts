/**
 * Profiles of the task benchmark's phases, one file each, when the environment asks for them:
 * `BENCH_TASKS_CPU_PROF` names a directory for CPU profiles, `BENCH_TASKS_HEAP_PROF` one for
 * sampled allocation profiles (what each function allocates: the garbage collector's work in a
 * CPU profile says how much, not whose). Both come from the V8 profilers of this very process
 * (node:inspector), started and stopped around the measured seconds only, so a profile holds one
 * phase (creating tasks with Redis, say) and nothing of the others or of start-up.
 * `bench/profile/summarize-profile.ts` turns a CPU profile into µs per operation; a heap profile
 * opens in Chrome's DevTools.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/** Bytes between allocation samples: finer than V8's default 32 KiB, for phases of a few seconds. */
const HEAP_SAMPLING_INTERVAL = 4096;

function save(dir: string, file: string, profile: unknown): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), JSON.stringify(profile));
}

/** Runs `work`, profiled into `<dir>/<name>.cpuprofile` and `<dir>/<name>.heapprofile` as asked. */
export async function profilePhase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const cpuDir = process.env.BENCH_TASKS_CPU_PROF;
  const heapDir = process.env.BENCH_TASKS_HEAP_PROF;
  if (!cpuDir && !heapDir) return work();
  const session = new Session();
  session.connect();
  try {
    if (cpuDir) {
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    if (heapDir) {
      // Without the two flags, a sampling profile holds only what is still alive when it stops.
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: HEAP_SAMPLING_INTERVAL,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    }
    const result = await work();
    if (heapDir) save(heapDir, `${name}.heapprofile`, (await session.post('HeapProfiler.stopSampling')).profile);
    if (cpuDir) save(cpuDir, `${name}.cpuprofile`, (await session.post('Profiler.stop')).profile);
    return result;
  } finally {
    session.disconnect();
  }
}
