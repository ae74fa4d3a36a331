/**
 * The composition root: one call builds a Baton server from tools and options. Every dependency
 * (key ring, clock, randomness, logger, auth) is injected with a default; there are no module
 * singletons, so tests run several independent servers in one process.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import type Router from '@koa/router';
import type Koa from 'koa';
import { createMcpService, type McpService, type McpServiceOptions } from './create-mcp-service.js';
import {
  capSocketsPerClient,
  createHttpApp,
  DEFAULT_CONNECTION_LIMITS,
  isLoopbackHost,
  serverTimeoutOptions,
  LOOPBACK_HOSTS,
  type Authenticate,
  type ConnectionLimits,
  type OriginPolicy,
  oauthResourceServer,
  type OAuthOptions,
  type ProtectedResourceOptions,
} from './http/index.js';
import { catalogueScopes } from './protocol/index.js';
import { ConfigurationError } from './engine/index.js';
import type { HtmlExtras } from './docs-site/index.js';
import { docsRouter } from './http/docs-routes.js';
import { consoleRouter } from './http/console-routes.js';
import { operatorAccess } from './http/operator-access.js';

export type { TaskOptions } from './create-mcp-service.js';

/** The service's options (create-mcp-service.ts) and what serving it over HTTP adds. */
export interface BatonOptions extends Omit<McpServiceOptions, 'docs'> {
  /** The interface the server listens on; loopback turns on the Host allow-list. */
  host?: string;
  path?: string;
  authenticate?: Authenticate;
  originPolicy?: OriginPolicy;
  maxBodyBytes?: number;
  /** Time a client has to send the whole body once its headers arrived (10 s). */
  bodyTimeoutMs?: number;
  /** Request-body bytes held at once across all connections (64 MiB) and per client address (16 MiB). */
  maxBodyBytesInFlight?: number;
  maxBodyBytesPerClient?: number;
  /** Header, request and keep-alive timeouts, and sockets per client address (connection-limits.ts). */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Names this instance in the `Baton-Instance` header (default `hostname:pid`). */
  instanceId?: string;
  routers?: Router[];
  /** Requests one instance works on at once before answering 503. */
  maxConcurrentRequests?: number;
  /**
   * Of those, what one caller (a principal, or a client address when anonymous) may hold before
   * answering 429: a quarter of `maxConcurrentRequests` unless set (docs/security.md, "Fair shares").
   */
  maxConcurrentRequestsPerClient?: number;
  /** With `authenticate`: serve RFC 9728 metadata and name it in 401 challenges. */
  protectedResource?: ProtectedResourceOptions;
  /**
   * Validate OAuth access tokens (JWTs) from these issuers (docs/security.md): sets
   * `authenticate` and `protectedResource` together. Not with `authenticate`.
   */
  oauth?: OAuthOptions;
  /**
   * Serve the generated docs at GET /docs (not behind `authenticate`). Default: on, unless
   * `authenticate` is set; a page runs its tool's example once, in-process (server/docs-site).
   */
  docs?: boolean;
  /** More on each tool's docs page (`baton dev` adds its diagram editor there; server/cli/editor). */
  toolPageExtras?: (tool: string) => HtmlExtras;
  /**
   * With `authenticate` and `docs` both on: let the tool pages' "Try it" panel send the bearer
   * token the reader types in (Authorization header). Off by default: the panel sends no
   * credentials, so a page can never spend a user's token unasked.
   */
  tryItSendsToken?: boolean;
  /**
   * The operator's console at GET /console (docs/console.md): every principal's tasks, their
   * diagrams, the stuck ones, cancel. Off by default; `true` or options turn it on. It answers
   * operators only (404 to anyone else): OAuth tokens with `operatorScope`, the principals in
   * `operators`, or, without `authenticate`, loopback callers when `loopback` is set (`baton dev`).
   */
  console?: boolean | ConsoleOptions;
}

export interface ConsoleOptions {
  /** The OAuth scope that makes a token an operator's (`baton:operator`). */
  operatorScope?: string | undefined;
  /** Principal ids that are operators: `token:<name>` for a static token, `<iss>|<sub>` for OAuth. */
  operators?: string[] | undefined;
  /** Without `authenticate`: callers on loopback are operators. Only for development (`baton dev`). */
  loopback?: boolean | undefined;
}

/** The service (create-mcp-service.ts) served over HTTP; `close` leaves the HTTP server to the caller. */
export interface BatonServer extends McpService {
  app: Koa;
  instanceId: string;
  /** Starts listening; resolves with the bound address and the endpoint URL. */
  listen(port: number, host?: string): Promise<{ server: Server; url: string }>;
}

/**
 * A Baton server for your own process: the MCP service over HTTP (a Koa app), with every
 * dependency given in `options` and nothing read from the environment or printed. Call `listen`
 * to serve it, or mount `app` in your own HTTP server. For `baton serve`'s behaviour, use `serve`.
 * @example
 * ```ts
 * import { createServer, parseKeyRing } from 'baton-mcp/server';
 * import { tools } from './tools/index.js';
 *
 * // Nothing is read from the environment: every setting is an option.
 * const baton = createServer({ tools, keyRing: parseKeyRing(process.env.BATON_KEYS) });
 * const { server, url } = await baton.listen(3000, '127.0.0.1');
 * console.log(`MCP endpoint: ${url}`);
 * process.once('SIGTERM', () => server.close(() => void baton.close()));
 * ```
 */
export function createServer(options: BatonOptions): BatonServer {
  if (options.oauth && options.authenticate) {
    throw new ConfigurationError('Pass either `oauth` or `authenticate` to createServer, not both.');
  }
  const oauth = options.oauth ? oauthResourceServer(options.oauth, options.logger) : undefined;
  const authenticate = options.authenticate ?? oauth?.authenticate;
  const docs = options.docs ?? !authenticate;
  const instanceId = options.instanceId ?? `${hostname()}:${process.pid}`;
  const service = createMcpService({ ...options, docs, telemetry: { instanceId, ...options.telemetry } });
  const { dispatcher, registry, legacy, logger } = service;
  const scoped = catalogueScopes([...registry.list(), ...(options.prompts ?? []), ...(options.resources ?? [])]);
  const resource = options.protectedResource ?? oauth?.protectedResource;
  // RFC 9728 `scopes_supported`, and the `scope` a 401 names: every scope the catalogue declares.
  const protectedResource = resource && { ...resource, scopesSupported: resource.scopesSupported ?? scoped };
  if (!authenticate && scoped.length > 0) {
    // Scopes come with access tokens: without authentication every caller may use everything.
    logger.warn('scopes_not_enforced', { scopes: scoped });
  }
  const host = options.host ?? '127.0.0.1';
  const originPolicy = options.originPolicy ?? (isLoopbackHost(host) ? { allowedHosts: LOOPBACK_HOSTS } : {});
  const path = options.path ?? '/mcp';
  const operatorConsole = options.console ? consoleRoutes(options, service, authenticate) : [];
  const app = createHttpApp({
    dispatcher,
    logger,
    path,
    originPolicy,
    instanceId,
    ...(authenticate ? { authenticate } : {}),
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.bodyTimeoutMs ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
    ...(options.maxBodyBytesInFlight ? { maxBodyBytesInFlight: options.maxBodyBytesInFlight } : {}),
    ...(options.maxBodyBytesPerClient ? { maxBodyBytesPerClient: options.maxBodyBytesPerClient } : {}),
    headerParamsOf: (name) => registry.headerParams(name),
    ...(legacy ? { legacy } : {}),
    routers: [
      ...(docs
        ? [
            docsRouter({
              // Read per request: under `baton dev` the pages follow each reload.
              content: () => ({ tools: registry.list(), prompts: options.prompts, resources: options.resources }),
              logger,
              endpoint: path,
              tryItAuth: !authenticate ? 'open' : options.tryItSendsToken ? 'token' : 'withheld',
              ...(options.toolPageExtras ? { toolPageExtras: options.toolPageExtras } : {}),
            }),
          ]
        : []),
      ...operatorConsole,
      ...(options.routers ?? []),
    ],
    ...(options.maxConcurrentRequests ? { maxConcurrentRequests: options.maxConcurrentRequests } : {}),
    ...(options.maxConcurrentRequestsPerClient
      ? { maxConcurrentRequestsPerClient: options.maxConcurrentRequestsPerClient }
      : {}),
    ...(protectedResource ? { protectedResource } : {}),
  });
  return {
    ...service,
    app,
    instanceId,
    listen(port, listenHost = host) {
      return new Promise((resolve, reject) => {
        const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits };
        const server = createHttpServer(serverTimeoutOptions(limits), app.callback());
        capSocketsPerClient(server, limits.maxSocketsPerClient);
        server.listen(port, listenHost);
        server.once('error', reject);
        server.once('listening', () => {
          const address = server.address() as AddressInfo;
          const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve({ server, url: `http://${shownHost}:${address.port}${path}` });
        });
      });
    },
  };
}

/** The console's router, answering the operators `options.console` names. */
function consoleRoutes(options: BatonOptions, service: McpService, authenticate: Authenticate | undefined): Router[] {
  const settings = options.console === true ? {} : options.console || {};
  if (!authenticate && !settings.loopback) {
    throw new ConfigurationError(
      'The console answers operators only, and without authentication nobody is one: set BATON_TOKENS with BATON_OPERATORS, or BATON_AUTH_SERVERS (tokens with the baton:operator scope). `baton dev` lets callers on loopback in.',
    );
  }
  const access = operatorAccess({
    authenticate,
    operatorScope: settings.operatorScope,
    operators: settings.operators,
    loopback: settings.loopback,
  });
  return [
    consoleRouter({
      tasks: service.tasks?.operator,
      // Read per request: under `baton dev` the diagrams follow each reload.
      tools: () => service.registry.list(),
      versionOf: (machine) => service.engine.versionOf(machine),
      access,
      keyRing: options.keyRing,
      logger: service.logger,
      // Loopback operators are `baton dev`'s: there, a pending question may be answered from the console.
      dev: settings.loopback === true,
      ...(options.clock ? { clock: options.clock } : {}),
    }),
  ];
}
