/**
 * The bench's measure of what a target spends writing its responses: the time inside
 * `net.Socket#_writeGeneric`, where Node hands a response to the kernel (a synchronous `write` or
 * `writev` on Linux). Installed in every target process by the harness, never in Baton's server.
 * A write that wakes an idle client costs far more than one to a busy client (docs/benchmarks.md),
 * so the limit counts each target's write at its own measured cost.
 */
import net from 'node:net';
import { SpanTimer, type SpanTotals } from './span-timer.js';

const writes = new SpanTimer();

/** Starts timing socket writes in this process (once). */
export function timeSocketWrites(): void {
  writes.timeMethod(net.Socket.prototype, '_writeGeneric');
}

/** µs spent in socket writes, and how many, since timing started. */
export function socketWriteTotals(): SpanTotals {
  return writes.totals();
}
