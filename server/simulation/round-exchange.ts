/**
 * What a conversation is made of: each request as it went over the wire with the response it got
 * (`Exchange`), how one is sent (`Send`: in process for the docs and the test kit, over HTTP for
 * `baton call`), and what a whole run comes to (`RoundsRun`).
 */
import type { JsonRpcResponse } from '../protocol/index.js';

export interface RpcRequest {
  jsonrpc: '2.0';
  id: string | number;
  method: string;
  params: Record<string, unknown>;
}

/** One request as sent (with its `_meta`) and the response it got. */
export interface Exchange {
  request: RpcRequest;
  response: JsonRpcResponse;
}

/** Sends one request; `params` come without `_meta`, which the sender adds as its client would. */
export type Send = (method: string, params: Record<string, unknown>) => Promise<Exchange>;

/** One exchange of a run, with where the machine waited after it and what the client answered. */
export interface Round extends Exchange {
  /** The states the machine waits in after this exchange (leaf paths), when it asks and the sender can tell. */
  waitingIn: string[];
  /** What the client answered, by `inputRequests` key, sent with the next request. */
  answers: Record<string, unknown>;
}

export type RpcError = { code: number; message: string; data?: unknown };

/**
 * What the client ends with, as a `tools/call` answer would give it: the result (a completed
 * task's result too), the JSON-RPC error (a failed task's error too), or a task someone cancelled.
 */
export type RunEnding = { result: Record<string, unknown> } | { error: RpcError } | { cancelled: true };

export interface RoundsRun {
  rounds: Round[];
  /**
   * `complete`: the flow answered (a result, or a task that ended); `error`: a JSON-RPC error
   * answered a request; `unfinished`: still asking after `maxRounds` (a task too: its `tools/call`
   * and `tasks/update`s are its rounds), or a task still running after `taskTimeoutMs`; `interrupted`: the run's signal fired.
   */
  outcome: 'complete' | 'error' | 'unfinished' | 'interrupted';
  /** Set when the outcome is `complete` or `error`. */
  ending?: RunEnding;
  /** The task the flow became, when it became one. */
  taskId?: string;
}
