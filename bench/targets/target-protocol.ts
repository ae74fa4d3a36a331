/** The IPC messages between the bench runner and a target child process. */

export type TargetKind = 'baton' | 'sdk' | 'floor';

export const TARGET_KINDS: readonly TargetKind[] = ['baton', 'sdk', 'floor'];

export interface UsageRequest {
  type: 'usage';
  id: number;
  /** Run a full GC before reading memory (needs `--expose-gc`). */
  gc?: boolean;
}

export interface Usage {
  /** `process.cpuUsage()` of the target, in µs since it started. */
  cpu: { user: number; system: number };
  rss: number;
  heapUsed: number;
  /** Time spent in socket writes (bench/targets/write-timer.ts), in µs, and their number, since start. */
  writes?: { micros: number; count: number };
  /** Time spent in the target's own request work (bench/targets/request-work.ts), likewise. */
  work?: { micros: number; count: number };
}

export type TargetMessage = { type: 'ready'; url: string; pid: number } | ({ type: 'usage'; id: number } & Usage);
