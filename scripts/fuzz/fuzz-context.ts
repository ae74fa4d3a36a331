/**
 * What every attack category gets: where the server is, the seed, and the ways to send. Every
 * request sent through `send`/`sendAll` is judged and counted for the current category; honest
 * set-up calls (`honest`) are counted apart.
 */
import { message } from '../../test/helpers/hostile-messages.js';
import { judge, jsonRpcOf, mcpRequest, type Attack, type Verdict } from './attack.js';
import { exchange, type Outcome } from './raw-http.js';
import type { Tally } from './tally.js';
import type { RetainedHeap } from './process-memory.js';

export interface Sent {
  attack: Attack;
  outcome: Outcome;
  verdict: Verdict;
  message?: any;
}

export interface FuzzContext {
  port: number;
  seed: number;
  keyId: string;
  /** The server's process id, for its RSS (resource attacks). */
  pid?: number;
  send(attack: Attack): Promise<Sent>;
  /** Sends with the configured concurrency bound. */
  sendAll(attacks: Attack[]): Promise<Sent[]>;
  /**
   * A conformant call whose answer the category needs (a real state); not an attack. Sent from
   * HONEST_ADDRESS, since per-client limits rightly refuse an address that is attacking.
   */
  honest(method: string, params: Record<string, unknown>, caps?: unknown): Promise<any>;
  /** What the server still holds after full collections (its heap probe), where available. */
  heap?: () => Promise<RetainedHeap | undefined>;
}

/** Where honest calls come from; every attack comes from 127.0.0.1. */
export const HONEST_ADDRESS = '127.0.0.2';

export interface ContextOptions {
  port: number;
  pid?: number;
  seed: number;
  keyId: string;
  concurrency: number;
  timeoutMs: number;
  tally: Tally;
  heap?: () => Promise<RetainedHeap | undefined>;
}

/** Runs `work` over `items` with at most `limit` in flight, keeping the order of results. */
export async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

export function createContext(options: ContextOptions): FuzzContext {
  const { port, tally } = options;
  const send = async (attack: Attack): Promise<Sent> => {
    const outcome = await exchange(port, attack.bytes, {
      timeoutMs: attack.timeoutMs ?? options.timeoutMs,
      ...(attack.headRequest ? { headRequest: true } : {}),
      ...(attack.later ? { later: attack.later } : {}),
    });
    const verdict = judge(attack, outcome);
    tally.record(attack, verdict);
    return { attack, outcome, verdict, message: verdict.message };
  };
  return {
    port,
    ...(options.pid === undefined ? {} : { pid: options.pid }),
    seed: options.seed,
    keyId: options.keyId,
    send,
    sendAll: (attacks) => pool(attacks, options.concurrency, send),
    ...(options.heap ? { heap: options.heap } : {}),
    async honest(method, params, caps) {
      const outcome = await exchange(port, mcpRequest(port, JSON.stringify(message(method, params, caps))), {
        timeoutMs: options.timeoutMs,
        localAddress: HONEST_ADDRESS,
      });
      tally.honestRequests += 1;
      return outcome.kind === 'response' ? jsonRpcOf(outcome) : undefined;
    },
  };
}
