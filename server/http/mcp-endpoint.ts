/**
 * POST /mcp: one JSON-RPC message in, one response out (JSON, or SSE once the request streams).
 * The client closing the connection cancels the request (spec, streamable-http "Cancellation").
 */
import type { Context, Middleware } from 'koa';
import {
  ErrorCode,
  errorResponse,
  parseJson,
  ProtocolError,
  isJsonRpcResponse,
  isLegacyMessage,
  isRetryLaterStatus,
  limitExceeded,
  readableId,
  type LegacyService,
  type McpDispatcher,
} from '../protocol/index.js';
import { Cancellation } from '../engine/index.js';
import { AuthenticationError, type Authenticate } from './authenticate.js';
import { insufficientScope, writeChallenge, type ChallengeOptions } from './bearer-challenge.js';
import type { BodyBudget } from './body-budget.js';
import { clientKey } from './client-address.js';
import type { ConcurrencyGate } from './concurrency-limit.js';
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
import { standardHeaderCheck, type HeaderParamsOf } from './standard-headers.js';

export interface McpEndpointOptions {
  dispatcher: McpDispatcher;
  authenticate: Authenticate;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  gate: ConcurrencyGate;
  /** Request-body bytes held at once, in total and per client address. */
  bodyBudget: BodyBudget;
  /** What 401 and 403 challenges name (the RFC 9728 metadata URL, the scopes to ask for). */
  challenge?: ChallengeOptions;
  /** The tools' `x-mcp-header` parameters (see standard-headers.ts). */
  headerParamsOf?: HeaderParamsOf;
  /** Serves 2025-11-25 clients (initialize, sessions) on the same endpoint. */
  legacy?: LegacyService;
}

export function mcpEndpoint(options: McpEndpointOptions): Middleware {
  return async (ctx) => {
    const channel = new ResponseChannel(ctx);
    const cancellation = new Cancellation();
    ctx.res.on('close', () => {
      if (!ctx.res.writableFinished) cancellation.abort();
    });

    let principal;
    try {
      const authenticated = options.authenticate(ctx);
      principal = authenticated instanceof Promise ? await authenticated : authenticated;
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      channel.finish(
        writeChallenge(ctx, error.failure, options.challenge ?? {}),
        errorResponse(undefined, new ProtocolError(ErrorCode.InvalidRequest, error.message)),
      );
      return;
    }

    const client = clientKey(ctx.req.socket.remoteAddress);
    const declared = Number(ctx.req.headers['content-length']);
    const reserveBytes = Number.isSafeInteger(declared) && declared <= options.maxBodyBytes ? declared : 0;
    const budget = options.bodyBudget.reserve(client, reserveBytes);
    if (!budget) return bodyBusy(ctx, channel, options.bodyBudget.busyMessage);
    if (!principal.authenticated) principal = { ...principal, client };

    let message: unknown;
    let body: string | undefined;
    try {
      body = await readBody(ctx.req, options.maxBodyBytes, options.bodyTimeoutMs, { bytes: reserveBytes, budget });
      message = parseJson(body);
    } catch (error) {
      if (error instanceof BodyBudgetExceededError) return bodyBusy(ctx, channel, error.message);
      if (error instanceof BodyTooLargeError) {
        // The rest of the body is read and dropped first (bounded), so the client finishes sending
        // and reads the 413 instead of a broken pipe; past the bound the connection closes.
        if (!(await discardRest(ctx.req))) ctx.set('Connection', 'close');
        channel.finish(413, errorResponse(undefined, new ProtocolError(ErrorCode.InvalidRequest, error.message)));
        return;
      }
      if (error instanceof BodyTimeoutError || error instanceof BodyAbortedError) {
        // The client hung up (or was cut off) mid-body: nothing can be answered, nothing went wrong.
        ctx.respond = false;
        return;
      }
      if (error instanceof ProtocolError) {
        channel.finish(error.httpStatus, errorResponse(error.requestId, error));
        return;
      }
      throw error;
    } finally {
      budget.release();
    }

    if (!options.gate.tryEnter()) {
      ctx.set('Retry-After', '1');
      const busy = limitExceeded('concurrent_requests', options.gate.busyMessage, 'instance', {
        limit: options.gate.max,
      });
      channel.finish(busy.httpStatus, errorResponse(readableId(message), busy));
      return;
    }
    // A long-lived request (a listen stream, a 2025-11-25 call waiting for its answer) gives its
    // slot back early, once its own budget has taken it (protocol/long-lived-budget.ts).
    let inGate = true;
    const leaveRequestGate = () => {
      if (!inGate) return;
      inGate = false;
      options.gate.leave();
    };
    const keepAlive = () => channel.keepAlive();
    let outcome;
    try {
      // The 2025-11-25 wire (initialize and sessions) goes to its own layer; see legacy-endpoint.ts.
      if (options.legacy && isLegacyMessage(message, sessionHeader(ctx) !== undefined)) {
        // A response's result is the client's answer: the envelope dropped it, so read it again.
        const full = isJsonRpcResponse(message) ? (JSON.parse(body!) as unknown) : message;
        body = undefined;
        await legacyPost(options.legacy, {
          ctx,
          channel,
          message: full,
          principal,
          signal: cancellation.signal,
          challenge: options.challenge ?? {},
          leaveRequestGate,
        });
        return;
      }
      // Only the envelope may stay alive while the request runs (test/security/memory-amplification).
      body = undefined;
      outcome = await options.dispatcher.dispatch(message, {
        principal,
        cancellation,
        checkTransport: standardHeaderCheck(ctx.req.headers, options.headerParamsOf),
        notify: (notification) => channel.notify(notification),
        traceHeaders: ctx.req.headers,
        leaveRequestGate,
        keepAlive,
      });
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
  };
}

/** Over the body budget: refused before (or while) the body is read, and the connection closed. */
function bodyBusy(ctx: Context, channel: ResponseChannel, text: string): void {
  ctx.set('Connection', 'close');
  ctx.set('Retry-After', '1');
  const busy = limitExceeded('body_bytes_in_flight', text, 'instance');
  channel.finish(busy.httpStatus, errorResponse(undefined, busy));
}
