/**
 * The bench's measure of what a target spends writing its responses: the time inside
 * `net.Socket#_writeGeneric`, where Node hands a response to the kernel (a synchronous `write` or
 * `writev` on Linux). Installed in every target process by the harness, never in Baton's server.
 * A write that wakes an idle client costs far more than one to a busy client (docs/benchmarks.md),
 * so the limit counts each target's write at its own measured cost.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';

let spentMicros = 0;
let writes = 0;

/** Starts timing socket writes in this process (once). */
export function timeSocketWrites(): void {
  const proto = net.Socket.prototype as unknown as { _writeGeneric: (...args: unknown[]) => unknown };
  const original = proto._writeGeneric;
  if ((original as { timed?: boolean }).timed) return;
  const timed = function (this: unknown, ...args: unknown[]) {
    const start = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      spentMicros += (performance.now() - start) * 1000;
      writes++;
    }
  };
  (timed as { timed?: boolean }).timed = true;
  proto._writeGeneric = timed;
}

/** µs spent in socket writes, and how many, since timing started. */
export function socketWriteTotals(): { micros: number; count: number } {
  return { micros: spentMicros, count: writes };
}
