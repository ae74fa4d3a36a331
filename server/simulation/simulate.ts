/**
 * One flow run for real in process: the simulated server (simulated-server.ts) and the
 * conversation runner (run-rounds.ts), with the flow's example arguments and, unless told
 * otherwise, its example answers. The docs show such a run; the test kit replays its paths with it.
 */
import { defaultAnswers, type AnswerPolicy } from './answer-policy.js';
import type { RoundsRun } from './round-exchange.js';
import { runRounds } from './run-rounds.js';
import { startSimulatedServer, type SimulatedServerOptions } from './simulated-server.js';
import { exampleParams, flowMethod, type SimulatedFlow } from './simulated-flow.js';

export interface SimulateOptions extends SimulatedServerOptions {
  /** Overrides the default answers (the tool's `exampleAnswers`, then the schema's examples). */
  answer?: AnswerPolicy;
  /** Requests of the synchronous flow before the run counts as unfinished (default 12). */
  maxRounds?: number;
  /** Real time a task may run (default 30 s). */
  taskTimeoutMs?: number;
}

/** Polls of a task in process: often, since they cost nothing and timers run on real time. */
const SIMULATED_POLL_MS = 20;

export async function simulate(flow: SimulatedFlow, options: SimulateOptions = {}): Promise<RoundsRun> {
  const server = startSimulatedServer(flow, options);
  try {
    return await runRounds(server.send, options.answer ?? defaultAnswers(flow), {
      method: flowMethod(flow),
      params: exampleParams(flow),
      maxRounds: options.maxRounds ?? 12,
      waitingIn: server.waitingIn,
      pollMs: () => SIMULATED_POLL_MS,
      taskTimeoutMs: options.taskTimeoutMs ?? 30_000,
    });
  } finally {
    await server.close();
  }
}
