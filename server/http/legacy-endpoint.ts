/**
 * The 2025-11-25 Streamable HTTP transport on the same endpoint (spec 2025-11-25,
 * basic/transports): `initialize` opens a session whose id comes back in `Mcp-Session-Id`; every
 * later POST carries it; a request's answer is JSON, or an SSE stream once the server has
 * something to send first (progress, log messages, a question for the client); the client's
 * responses to those questions arrive as POSTs of their own (202); GET opens the session's
 * stream for messages that belong to no request; DELETE ends the session.
 *
 * A client that goes away mid-call cancels the call: Baton's streams are not resumable, so
 * nobody could read its answer (docs/clients.md).
 */
import type { Context, Middleware } from 'koa';
import {
  ErrorCode,
  isLegacyVersion,
  isRetryLaterStatus,
  LEGACY_PROTOCOL_VERSIONS,
  ProtocolError,
  readableId,
  type JsonRpcRequest,
  type LegacyService,
  type LegacySession,
  type Principal,
} from '../protocol/index.js';
import type { AuthenticateOrChallenge } from './authenticate-or-challenge.js';
import { insufficientScope, writeChallenge, type ChallengeOptions } from './bearer-challenge.js';
import { replyError } from './error-reply.js';
import type { ResponseChannel } from './response-channel.js';

export const SESSION_HEADER = 'mcp-session-id';
/** Comments on an idle GET stream, so proxies and clients do not take it for dead. */
const KEEP_ALIVE_MS = 25_000;

const badRequest = (message: string) => new ProtocolError(ErrorCode.InvalidRequest, `Bad Request: ${message}`);
const sessionNotFound = () =>
  new ProtocolError(ErrorCode.InvalidRequest, 'Session not found: start a new session with initialize');

export function sessionHeader(ctx: Context): string | undefined {
  const value = ctx.get(SESSION_HEADER);
  return value === '' ? undefined : value;
}

/**
 * "MUST respond with 400 Bad Request" to an invalid or unsupported MCP-Protocol-Version (2025-11-25
 * transports): the client sends the version negotiated in `initialize`, so in a session that
 * settled on 2025-06-18 a served but different version (2025-11-25) is invalid too.
 */
function versionProblem(ctx: Context, session: LegacySession): ProtocolError | undefined {
  const version = ctx.get('mcp-protocol-version');
  if (version === '' || version === session.protocolVersion) return undefined;
  if (isLegacyVersion(version)) {
    return badRequest(`MCP-Protocol-Version ${version} is not this session's version, ${session.protocolVersion}`);
  }
  return badRequest(
    `MCP-Protocol-Version ${version} is not served in a session; use ${LEGACY_PROTOCOL_VERSIONS.join(' or ')}`,
  );
}

export interface LegacyPost {
  ctx: Context;
  channel: ResponseChannel;
  /** The envelope of a request or notification; a response whole (its result is the answer). */
  message: unknown;
  principal: Principal;
  signal: AbortSignal;
  /** What a 403 for missing scopes names (bearer-challenge.ts). */
  challenge: ChallengeOptions;
  /** Gives back the request's gate slot once a call waits for its client (long-lived-budget.ts). */
  leaveRequestGate?: () => void;
}

export async function legacyPost(legacy: LegacyService, post: LegacyPost): Promise<void> {
  const { ctx, channel, message, principal } = post;
  const token = sessionHeader(ctx);
  if (token === undefined) {
    // Only an initialize without a session comes here (isLegacyMessage).
    const opened = legacy.initialize(message as JsonRpcRequest, principal);
    if (opened.token) ctx.set('Mcp-Session-Id', opened.token);
    const status = opened.httpStatus ?? (opened.token ? 200 : 400);
    if (isRetryLaterStatus(status)) ctx.set('Retry-After', '1');
    channel.finish(status, opened.response);
    return;
  }
  const session = legacy.session(token, principal);
  if (!session) {
    replyError(ctx, 404, sessionNotFound(), readableId(message));
    return;
  }
  const problem = versionProblem(ctx, session);
  if (problem) {
    replyError(ctx, 400, problem, readableId(message));
    return;
  }
  const outcome = await legacy.handle(session, message, {
    principal,
    signal: post.signal,
    send: (outgoing) => channel.notify(outgoing),
    ...(post.leaveRequestGate ? { leaveRequestGate: post.leaveRequestGate } : {}),
  });
  switch (outcome.type) {
    case 'accepted':
      ctx.respond = false;
      ctx.res.writeHead(202).end();
      return;
    case 'unmatched':
      channel.finish(400, outcome.response);
      return;
    case 'cancelled':
      channel.abandon();
      return;
    case 'response':
      if (outcome.insufficientScope) {
        const status = writeChallenge(ctx, insufficientScope(outcome.insufficientScope), post.challenge);
        channel.finish(status, outcome.response);
        return;
      }
      channel.finishAfterTurn(200, outcome.response);
  }
}

/** The session a GET or DELETE names; answers the refusal itself (401, 404) when there is none. */
async function requestedSession(
  ctx: Context,
  legacy: LegacyService,
  authenticate: AuthenticateOrChallenge,
): Promise<LegacySession | undefined> {
  const principal = await authenticate(ctx);
  if (!principal) return undefined;
  const session = legacy.session(sessionHeader(ctx)!, principal);
  if (!session) replyError(ctx, 404, sessionNotFound());
  return session;
}

/** GET with a session: its stream for messages unrelated to a request (resource updates). */
export function legacyGet(legacy: LegacyService, authenticate: AuthenticateOrChallenge): Middleware {
  return async (ctx, next) => {
    if (sessionHeader(ctx) === undefined) return next();
    const session = await requestedSession(ctx, legacy, authenticate);
    if (!session) return;
    if (session.standalone) {
      // One standalone stream per session (spec: the server MUST NOT broadcast a message twice).
      replyError(ctx, 409, badRequest('this session already has a GET stream'));
      return;
    }
    ctx.respond = false;
    const res = ctx.res;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
    });
    res.write(': stream open\n\n');
    const send = (message: Record<string, unknown>) => {
      if (!res.destroyed && !res.writableEnded) res.write(`data: ${JSON.stringify(message)}\n\n`);
    };
    session.standalone = send;
    session.closeStandalone = () => res.end();
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    keepAlive.unref();
    res.on('close', () => {
      clearInterval(keepAlive);
      if (session.standalone === send) {
        session.standalone = undefined;
        session.closeStandalone = undefined;
      }
    });
  };
}

/** DELETE with a session: ends it (spec 2025-11-25, "Session Management"). */
export function legacyDelete(legacy: LegacyService, authenticate: AuthenticateOrChallenge): Middleware {
  return async (ctx, next) => {
    if (sessionHeader(ctx) === undefined) return next();
    const session = await requestedSession(ctx, legacy, authenticate);
    if (!session) return;
    legacy.endSession(session);
    ctx.status = 204;
  };
}
