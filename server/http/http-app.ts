/**
 * The Koa application: the MCP endpoint (POST only), a health check, DNS-rebinding protection,
 * and an instance header so operators can see which instance served a request.
 */
import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import type { Logger } from '../engine/index.js';
import { ANONYMOUS, ErrorCode, ProtocolError, type LegacyService, type McpDispatcher } from '../protocol/index.js';
import type { Authenticate } from './authenticate.js';
import { authenticateOrChallenge } from './authenticate-or-challenge.js';
import type { ChallengeOptions } from './bearer-challenge.js';
import { BodyBudget, DEFAULT_BODY_BYTES_IN_FLIGHT, DEFAULT_BODY_BYTES_PER_CLIENT } from './body-budget.js';
import { ConcurrencyGate } from './concurrency-limit.js';
import { replyError } from './error-reply.js';
import { legacyDelete, legacyGet } from './legacy-endpoint.js';
import { mcpEndpoint } from './mcp-endpoint.js';
import type { HeaderParamsOf } from './standard-headers.js';
import { protectedResourceRouter, resourceMetadataUrl, type ProtectedResourceOptions } from './protected-resource.js';
import { originGuard, type OriginPolicy } from './origin-guard.js';
import { SelfAnsweringKoa } from './self-answering-koa.js';

export interface HttpAppOptions {
  dispatcher: McpDispatcher;
  logger: Logger;
  /** Path of the MCP endpoint (`/mcp`). */
  path?: string;
  authenticate?: Authenticate;
  originPolicy?: OriginPolicy;
  /** Largest request body accepted, in bytes (1 MiB: room for a full-size requestState). */
  maxBodyBytes?: number;
  /** Request-body bytes held at once across all connections (64 MiB), and per client address (16 MiB). */
  maxBodyBytesInFlight?: number;
  maxBodyBytesPerClient?: number;
  /** Sent as `Baton-Instance` on every response. */
  instanceId: string;
  /** Extra routes (docs pages, example pages) mounted beside the endpoint. */
  routers?: Router[];
  /** Requests one instance works on at once before answering 503 (256). */
  maxConcurrentRequests?: number;
  /** Of those, what one caller may hold before answering 429 (a quarter: concurrency-limit.ts). */
  maxConcurrentRequestsPerClient?: number;
  /** Time a client has to send the whole body once the headers arrived (10 s), else 408. */
  bodyTimeoutMs?: number;
  /** Serves RFC 9728 metadata and names it in 401 challenges (set together with `authenticate`). */
  protectedResource?: ProtectedResourceOptions;
  /** The tools' `x-mcp-header` parameters, whose `Mcp-Param-*` headers are checked against the body. */
  headerParamsOf?: HeaderParamsOf;
  /** Serves 2025-11-25 clients (initialize, sessions, GET and DELETE) on the same endpoint. */
  legacy?: LegacyService;
}

export const DEFAULT_MAX_CONCURRENT_REQUESTS = 256;
const CLIENT_HANGUPS = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'HPE_INVALID_EOF_STATE',
]);
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export function createHttpApp(options: HttpAppOptions): Koa {
  const path = options.path ?? '/mcp';
  const isEndpointPost = (ctx: Context) => ctx.method === 'POST' && ctx.path === path;
  // The endpoint's POSTs write every answer themselves (self-answering-koa.ts).
  const app = new SelfAnsweringKoa(isEndpointPost);
  if (!app.selfAnswering) {
    options.logger.warn('koa_handle_request_unrecognised', {
      message: `${app.overrideProblem}: every request takes Koa's own handleRequest (docs/xstate.md, "Upgrading XState and Koa")`,
    });
  }
  const router = new Router();
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // One challenge for every refusal, on every route and both eras.
  const challenge: ChallengeOptions = options.protectedResource
    ? {
        resourceMetadataUrl: resourceMetadataUrl(options.protectedResource),
        scopes: options.protectedResource.scopesSupported ?? [],
      }
    : {};
  const authenticate = authenticateOrChallenge(options.authenticate ?? (() => ANONYMOUS), challenge);

  const endpoint = mcpEndpoint({
    gate: new ConcurrencyGate(
      options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS,
      ...(options.maxConcurrentRequestsPerClient ? [options.maxConcurrentRequestsPerClient] : []),
    ),
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    dispatcher: options.dispatcher,
    authenticate,
    maxBodyBytes,
    // Never below one largest body, or such a body could never be read.
    bodyBudget: new BodyBudget({
      totalBytes: Math.max(maxBodyBytes, options.maxBodyBytesInFlight ?? DEFAULT_BODY_BYTES_IN_FLIGHT),
      perClientBytes: Math.max(maxBodyBytes, options.maxBodyBytesPerClient ?? DEFAULT_BODY_BYTES_PER_CLIENT),
    }),
    ...(options.headerParamsOf ? { headerParamsOf: options.headerParamsOf } : {}),
    challenge,
    ...(options.legacy ? { legacy: options.legacy } : {}),
  });
  router.post(path, endpoint);
  if (options.legacy) {
    // GET and DELETE of a 2025-11-25 session; without a session id they fall through to the 405.
    router.get(path, legacyGet(options.legacy, authenticate));
    router.delete(path, legacyDelete(options.legacy, authenticate));
  }
  // No standalone SSE stream and no sessions in 2026-07-28 (spec: GET and DELETE answer 405).
  router.all(path, (ctx) => {
    ctx.set('Allow', 'POST');
    replyError(ctx, 405, new ProtocolError(ErrorCode.InvalidRequest, 'Method Not Allowed: use POST'));
  });
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok', instance: options.instanceId };
  });

  app.on('error', (error: Error & { code?: string; status?: number; expose?: boolean }) => {
    // A client that hangs up mid-request or mid-response is ordinary (and free for anyone to cause,
    // so it must not fill the error log). A client's own mistake (a 4xx) is worth a warning at
    // most; only what went wrong on our side is an error.
    if (error.code && CLIENT_HANGUPS.has(error.code)) return;
    // Node's HTTP parser (HPE_*) fails on what the client sent: malformed chunks, data after close.
    // Node's request timeout (requestTimeoutMs) ends a request whose client stopped sending it.
    const clientCaused =
      error.code?.startsWith('HPE_') ||
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ||
      error.expose ||
      (typeof error.status === 'number' && error.status < 500);
    if (clientCaused) {
      options.logger.warn('http_client_error', { status: error.status, error: error.message });
      return;
    }
    options.logger.error('http_error', { error: error.message });
  });
  // Middleware on the hot path hand back next()'s promise instead of awaiting it: an async
  // wrapper per layer costs a promise and a microtask on every request.
  app.use((ctx, next) => {
    ctx.res.setHeader('Baton-Instance', options.instanceId);
    return next();
  });
  app.use(originGuard(options.originPolicy ?? {}));
  // Nearly every request is a POST to the endpoint: it skips the router's matching (the router
  // still serves the path with a trailing slash, and everything else).
  app.use((ctx, next) => (isEndpointPost(ctx) ? endpoint(ctx, next) : next()));
  app.use(router.routes());
  if (options.protectedResource) app.use(protectedResourceRouter(options.protectedResource).routes());
  for (const extra of options.routers ?? []) app.use(extra.routes());
  return app;
}
