/**
 * POST /mcp: one JSON-RPC message in, one response out (JSON, or SSE once the request streams).
 * The client closing the connection cancels the request (spec, streamable-http "Cancellation").
 *
 * One middleware runs the steps in order: authenticate, reserve the body budget, read, wait for
 * the turn's other reads (run-after-reads.ts), gate, route. Each step either hands the next one
 * what it needs or has already answered (a refusal through error-reply.ts) and hands back
 * undefined. They are plain functions called in sequence, not Koa middleware: a layer per step
 * would cost a promise and a microtask each on every request.
 */
import type { Context, Middleware } from 'koa';
import {
  callerKey,
  ErrorCode,
  parseJson,
  ProtocolError,
  isJsonRpcResponse,
  isLegacyMessage,
  isRetryLaterStatus,
  limitExceeded,
  readableId,
  type LegacyService,
  type McpDispatcher,
  type Principal,
} from '../protocol/index.js';
import { Cancellation } from '../engine/index.js';
import type { AuthenticateOrChallenge } from './authenticate-or-challenge.js';
import { insufficientScope, writeChallenge, type ChallengeOptions } from './bearer-challenge.js';
import type { BodyBudget, BodyReservation } from './body-budget.js';
import { clientKey } from './client-address.js';
import type { ConcurrencyGate } from './concurrency-limit.js';
import { replyError } from './error-reply.js';
import {
  BodyAbortedError,
  BodyBudgetExceededError,
  BodyTimeoutError,
  BodyTooLargeError,
  discardRest,
  readBody,
} from './read-body.js';
import { legacyPost, sessionHeader } from './legacy-endpoint.js';
import { ResponseChannel } from './response-channel.js';
import { afterReads } from './run-after-reads.js';
import { standardHeaderCheck, type HeaderParamsOf } from './standard-headers.js';

export interface McpEndpointOptions {
  dispatcher: McpDispatcher;
  /** The authentication step every route shares (authenticate-or-challenge.ts). */
  authenticate: AuthenticateOrChallenge;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  gate: ConcurrencyGate;
  /** Request-body bytes held at once, in total and per client address. */
  bodyBudget: BodyBudget;
  /** What a 403 for an operation's missing scopes names (the RFC 9728 metadata URL). */
  challenge?: ChallengeOptions;
  /** The tools' `x-mcp-header` parameters (see standard-headers.ts). */
  headerParamsOf?: HeaderParamsOf;
  /** Serves 2025-11-25 clients (initialize, sessions) on the same endpoint. */
  legacy?: LegacyService;
}

/** The body's share of the budget while it is read (read-body.ts). */
interface Reserved {
  bytes: number;
  budget: BodyReservation;
}

/** A message as read: its envelope, and the body until the request runs (see route). */
interface Incoming {
  envelope: unknown;
  body: string | undefined;
}

export function mcpEndpoint(options: McpEndpointOptions): Middleware {
  return async (ctx) => {
    const cancellation = cancelOnHangUp(ctx);
    const authenticated = options.authenticate(ctx);
    const caller = authenticated instanceof Promise ? await authenticated : authenticated;
    if (!caller) return;
    const client = clientKey(ctx.req.socket.remoteAddress);
    const reserved = reserveBodyBudget(ctx, options, client);
    if (!reserved) return;
    const incoming = await readMessage(ctx, options, reserved);
    if (!incoming) return;
    await afterReads();
    const principal: Principal = caller.authenticated ? caller : { ...caller, client };
    // Authenticated by now: a principal's requests share one share wherever they come from.
    const leaveRequestGate = enterGate(ctx, options.gate, callerKey(principal), incoming.envelope);
    if (!leaveRequestGate) return;
    return route(ctx, options, incoming, { principal, cancellation, leaveRequestGate });
  };
}

/** Listens from the start: a client that hangs up at any point cancels what runs for it. */
function cancelOnHangUp(ctx: Context): Cancellation {
  const cancellation = new Cancellation();
  ctx.res.on('close', () => {
    if (!ctx.res.writableFinished) cancellation.abort();
  });
  return cancellation;
}

/** Reserves the declared body length before a byte is read; undefined once refused (503). */
function reserveBodyBudget(ctx: Context, options: McpEndpointOptions, client: string): Reserved | undefined {
  const declared = Number(ctx.req.headers['content-length']);
  const bytes = Number.isSafeInteger(declared) && declared <= options.maxBodyBytes ? declared : 0;
  const budget = options.bodyBudget.reserve(client, bytes);
  if (budget) return { bytes, budget };
  bodyBusy(ctx, options.bodyBudget.busyMessage);
  return undefined;
}

/**
 * Reads and parses the body, and gives its budget back; undefined once refused (413, 503, a parse
 * error) or when the client went away mid-body.
 */
async function readMessage(
  ctx: Context,
  options: McpEndpointOptions,
  reserved: Reserved,
): Promise<Incoming | undefined> {
  try {
    const body = await readBody(ctx.req, options.maxBodyBytes, options.bodyTimeoutMs, reserved);
    return { envelope: parseJson(body), body };
  } catch (error) {
    if (error instanceof BodyBudgetExceededError) {
      bodyBusy(ctx, error.message);
    } else if (error instanceof BodyTooLargeError) {
      // The rest of the body is read and dropped first (bounded), so the client finishes sending
      // and reads the 413 instead of a broken pipe; past the bound the connection closes.
      if (!(await discardRest(ctx.req))) ctx.set('Connection', 'close');
      replyError(ctx, 413, new ProtocolError(ErrorCode.InvalidRequest, error.message));
    } else if (error instanceof BodyTimeoutError || error instanceof BodyAbortedError) {
      // The client hung up (or was cut off) mid-body: nothing can be answered, nothing went wrong.
      ctx.respond = false;
    } else if (error instanceof ProtocolError) {
      replyError(ctx, error.httpStatus, error, error.requestId);
    } else {
      throw error;
    }
    return undefined;
  } finally {
    reserved.budget.release();
  }
}

/**
 * Takes a request slot for the caller; answers how to give it back, or undefined once refused
 * (503 for the instance's total, 429 for the caller's share: concurrency-limit.ts).
 */
function enterGate(ctx: Context, gate: ConcurrencyGate, caller: string, envelope: unknown): (() => void) | undefined {
  const busy = gate.tryEnter(caller);
  if (busy) {
    ctx.set('Retry-After', '1');
    replyError(ctx, busy.httpStatus, busy, readableId(envelope));
    return undefined;
  }
  // A long-lived request (a listen stream, a 2025-11-25 call waiting for its answer) gives its
  // slot back early, once its own budget has taken it (protocol/long-lived-budget.ts).
  let inGate = true;
  return () => {
    if (!inGate) return;
    inGate = false;
    gate.leave(caller);
  };
}

interface Caller {
  principal: Principal;
  cancellation: Cancellation;
  leaveRequestGate: () => void;
}

/** Runs the message (the 2025-11-25 layer or the dispatcher), leaves the gate, writes the answer. */
async function route(ctx: Context, options: McpEndpointOptions, incoming: Incoming, caller: Caller): Promise<void> {
  const { principal, cancellation, leaveRequestGate } = caller;
  const channel = new ResponseChannel(ctx);
  let outcome;
  try {
    // The 2025-11-25 wire (initialize and sessions) goes to its own layer; see legacy-endpoint.ts.
    if (options.legacy && isLegacyMessage(incoming.envelope, sessionHeader(ctx) !== undefined)) {
      // A response's result is the client's answer: the envelope dropped it, so read it again.
      const message = isJsonRpcResponse(incoming.envelope)
        ? (JSON.parse(incoming.body!) as unknown)
        : incoming.envelope;
      incoming.body = undefined;
      await legacyPost(options.legacy, {
        ctx,
        channel,
        message,
        principal,
        signal: cancellation.signal,
        challenge: options.challenge ?? {},
        leaveRequestGate,
      });
      return;
    }
    // Only the envelope may stay alive while the request runs (test/security/memory-amplification).
    incoming.body = undefined;
    const dispatched = options.dispatcher.dispatch(incoming.envelope, {
      principal,
      cancellation,
      checkTransport: standardHeaderCheck(ctx.req.headers, options.headerParamsOf),
      notify: (notification) => channel.notify(notification),
      traceHeaders: ctx.req.headers,
      leaveRequestGate,
      keepAlive: () => channel.keepAlive(),
    });
    // Most rounds settle without waiting: their answer is written in this pass, with no microtask.
    outcome = dispatched instanceof Promise ? await dispatched : dispatched;
  } finally {
    leaveRequestGate();
  }
  switch (outcome.type) {
    case 'notification':
      // No client notifications exist on HTTP in 2026-07-28; accept and ignore (spec: 202).
      // Koa turns an empty body into 204; write the 202 ourselves.
      ctx.respond = false;
      ctx.res.writeHead(202).end();
      return;
    case 'cancelled':
      channel.abandon();
      return;
    case 'response':
      if (outcome.insufficientScope) {
        writeChallenge(ctx, insufficientScope(outcome.insufficientScope), options.challenge ?? {});
      }
      if (isRetryLaterStatus(outcome.httpStatus)) ctx.set('Retry-After', '1');
      channel.finishAfterTurn(outcome.httpStatus, outcome.response);
  }
}

/** Over the body budget: refused before (or while) the body is read, and the connection closed. */
function bodyBusy(ctx: Context, text: string): void {
  ctx.set('Connection', 'close');
  ctx.set('Retry-After', '1');
  const busy = limitExceeded('body_bytes_in_flight', text, 'instance');
  replyError(ctx, busy.httpStatus, busy);
}
