/**
 * Runs a request once Node has read every socket that was ready in this turn of the event loop,
 * not the moment its own body is in: the requests read in one poll phase then run one after
 * another in the check phase right after it (setImmediate), and their answers are written behind
 * them (end-after-turn.ts).
 *
 * Why: under load, a request's own work (the machine's round, sealing, the JSON) costs two to
 * four times what it costs in a hot loop (docs/benchmarks.md, "The same code, hot and under
 * load"), because Node parses the next socket's request between one round and the next and the
 * round's code and data leave the CPU's caches. Read first and run together, the rounds of a turn
 * follow each other with their code still warm, as the parser's work does. Measured with
 * `npm run bench:compare` (docs/benchmarks.md, "Against the shipped build").
 *
 * A request waits for nothing but the hop to the check phase: with one request in flight it runs
 * where its answer would have waited for the turn's end anyway.
 */
import { queueFlush } from './end-after-turn.js';

/** The current turn's batch, started by the first request read in it. */
let batch: Promise<void> | undefined;

/** Resolves in this turn's check phase, once every socket ready in it has been read. */
export function afterReads(): Promise<void> {
  if (batch === undefined) {
    batch = new Promise((start) => setImmediate(startBatch, start));
    // Between two immediates Node runs every microtask: the batch's requests run to their answers
    // (those that wait on no I/O), then this flush writes them, in the same check phase.
    queueFlush();
  }
  return batch;
}

function startBatch(start: () => void): void {
  // A request read from here on belongs to the next turn's batch.
  batch = undefined;
  start();
}
