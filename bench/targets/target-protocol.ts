/** The IPC messages between the bench runner and a Node target child process, and the target kinds. */

export type TargetKind = 'baton' | 'sdk' | 'python-sdk' | 'fastmcp' | 'floor';

/** Every target, in the order each repetition runs them (A B C D E). */
export const TARGET_KINDS: readonly TargetKind[] = ['baton', 'sdk', 'python-sdk', 'fastmcp', 'floor'];

export interface UsageRequest {
  type: 'usage';
  id: number;
  /** Run a full GC before reading memory (needs `--expose-gc`). */
  gc?: boolean;
}

export interface Usage {
  /** CPU time of the target (user and system), in µs since it started. */
  cpu: { user: number; system: number };
  rss: number;
  /** The V8 heap in use; absent for a Python target. */
  heapUsed?: number;
  /** Time spent in socket writes (bench/targets/write-timer.ts), in µs, and their number, since start. */
  writes?: { micros: number; count: number };
  /** Time spent in the target's own request work (bench/targets/request-work.ts), likewise. */
  work?: { micros: number; count: number };
}

export type TargetMessage = { type: 'ready'; url: string; pid: number } | ({ type: 'usage'; id: number } & Usage);
