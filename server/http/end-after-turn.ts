/**
 * Ends JSON responses after the current turn of the event loop, not at once: every response
 * finished while Node works through one batch of ready sockets is written in a row, in the check
 * phase right after it (setImmediate), in the order they were finished.
 *
 * Why: on loopback (a load generator, or nginx in front of a fleet on the same host) each write
 * also wakes the peer if it sleeps, and a server slower than its peer finds it asleep at nearly
 * every response. Written in a row, the first write of a batch wakes it and the rest find it
 * awake; the peer then sends its next requests together, so the next batch is larger too.
 * Measured with `npm run bench:compare` (docs/benchmarks.md): 0.74-0.78x the server CPU per
 * request for every bench flow at c=16 and c=64, 1.27-1.35x the flows/s and a lower p99, since the
 * server keeps up better; with one client, no change beyond the noise.
 * A response waits at most for the rest of its turn's requests, each of which runs synchronously
 * to its end; with one request in flight it waits for nothing but the hop to the check phase.
 * Requests themselves run in the check phase too (run-after-reads.ts), which queues a flush right
 * behind them, so their answers still go out in the same check phase.
 */
import type { ServerResponse } from 'node:http';

/** Responses and their bodies, in pairs, finished during this turn. */
let waiting: Array<ServerResponse | string> = [];
/**
 * Flushes queued and not yet run. While one is pending, a response finished now goes out with it:
 * flushes run only from the check phase's queue, so a pending one runs after this moment.
 */
let pendingFlushes = 0;

/** Ends `res` with `body` (headers already set) once this turn of the event loop is over. */
export function endAfterTurn(res: ServerResponse, body: string): void {
  if (pendingFlushes === 0) queueFlush();
  waiting.push(res, body);
}

/**
 * Queues a flush behind the immediates already queued. run-after-reads.ts puts one right behind
 * the batch of requests it starts: what they finish without waiting on I/O is written in the same
 * check phase, not one turn later.
 */
export function queueFlush(): void {
  pendingFlushes++;
  setImmediate(endWaiting);
}

function endWaiting(): void {
  pendingFlushes--;
  // Taken out first: whatever ending a response sets off belongs to the next turn's batch.
  const batch = waiting;
  waiting = [];
  for (let i = 0; i < batch.length; i += 2) {
    const res = batch[i] as ServerResponse;
    try {
      res.end(batch[i + 1] as string);
    } catch (error) {
      // Nothing can be answered any more; closing the connection beats leaving the client waiting,
      // and the rest of the batch is still written.
      res.destroy(error as Error);
    }
  }
}
