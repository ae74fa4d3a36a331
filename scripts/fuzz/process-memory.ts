/** Resident memory of another process, from /proc (Linux). */
import { readFileSync } from 'node:fs';

/** VmRSS of `pid` in bytes, or undefined where /proc is not available. */
export function residentBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export const mib = (bytes: number | undefined) =>
  bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** What a Baton process still holds after full collections, as its heap probe reported it. */
export interface RetainedHeap {
  heapUsed: number;
  external: number;
  rss: number;
  /** False when the process ran without `--expose-gc`, so nothing was collected first. */
  collected: boolean;
}

/**
 * Asks a process started with `scripts/fuzz/heap-probe.ts` preloaded for its retained heap:
 * SIGUSR2, then waits for the probe's next line in its stderr. Undefined if none came in time.
 */
export async function probeRetainedHeap(
  pid: number,
  stderr: () => string,
  timeoutMs = 10_000,
): Promise<RetainedHeap | undefined> {
  const seen = lastProbe(stderr())?.seq ?? 0;
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const probe = lastProbe(stderr());
    if (probe && probe.seq > seen) return probe;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

function lastProbe(text: string): (RetainedHeap & { seq: number }) | undefined {
  const lines = text.split('\n').filter((line) => line.startsWith('{"event":"heap_probe"'));
  const last = lines.at(-1);
  return last === undefined ? undefined : (JSON.parse(last) as RetainedHeap & { seq: number });
}
