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
import {
  checkToolEffects,
  FlowEngine,
  PromptRegistry,
  ResourceRegistry,
  stderrLogger,
  ToolRegistry,
  type FlowEngineOptions,
  type KeyRing,
  type Logger,
  type PromptDefinition,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
  type ToolDefinition,
} from './engine/index.js';
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
  type ProtectedResourceOptions,
} from './http/index.js';
import { docsRouter } from './http/docs-routes.js';
import { createMcpDispatcher, type McpDispatcher, type ServerInfo } from './protocol/index.js';
import { BATON_VERSION } from './version.js';

export interface BatonOptions extends Omit<FlowEngineOptions, 'keyRing' | 'logger'> {
  tools: ToolDefinition[];
  prompts?: PromptDefinition[];
  resources?: Array<ResourceDefinition | ResourceTemplateDefinition>;
  keyRing: KeyRing;
  logger?: Logger;
  serverInfo?: ServerInfo;
  instructions?: string;
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
  pageSize?: number;
  routers?: Router[];
  /** Requests one instance works on at once before answering 503. */
  maxConcurrentRequests?: number;
  /** With `authenticate`: serve RFC 9728 metadata and name it in 401 challenges. */
  protectedResource?: ProtectedResourceOptions;
  /**
   * Serve the generated docs at GET /docs (not behind `authenticate`). Default: on, unless
   * `authenticate` is set; a page runs its tool's example once, in-process (server/diagrams).
   */
  docs?: boolean;
}

export interface BatonServer {
  app: Koa;
  dispatcher: McpDispatcher;
  engine: FlowEngine;
  registry: ToolRegistry;
  instanceId: string;
  /** Starts listening; resolves with the bound address and the endpoint URL. */
  listen(port: number, host?: string): Promise<{ server: Server; url: string }>;
}

export function createServer(options: BatonOptions): BatonServer {
  const logger = options.logger ?? stderrLogger;
  const registry = new ToolRegistry(options.tools);
  const docs = options.docs ?? !options.authenticate;
  checkToolEffects(registry.list(), { docs, logger });
  const engine = new FlowEngine({ ...options, logger });
  const dispatcher = createMcpDispatcher({
    serverInfo: options.serverInfo ?? { name: 'baton', version: BATON_VERSION },
    tools: registry,
    prompts: new PromptRegistry(options.prompts ?? []),
    resources: new ResourceRegistry(options.resources ?? []),
    engine,
    logger,
    ...(options.instructions ? { instructions: options.instructions } : {}),
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
  });
  const host = options.host ?? '127.0.0.1';
  const instanceId = options.instanceId ?? `${hostname()}:${process.pid}`;
  const originPolicy = options.originPolicy ?? (isLoopbackHost(host) ? { allowedHosts: LOOPBACK_HOSTS } : {});
  const path = options.path ?? '/mcp';
  const app = createHttpApp({
    dispatcher,
    logger,
    path,
    originPolicy,
    instanceId,
    ...(options.authenticate ? { authenticate: options.authenticate } : {}),
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.bodyTimeoutMs ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
    ...(options.maxBodyBytesInFlight ? { maxBodyBytesInFlight: options.maxBodyBytesInFlight } : {}),
    ...(options.maxBodyBytesPerClient ? { maxBodyBytesPerClient: options.maxBodyBytesPerClient } : {}),
    headerParamsOf: (name) => registry.headerParams(name),
    routers: [
      ...(docs
        ? [
            docsRouter({
              content: { tools: registry.list(), prompts: options.prompts, resources: options.resources },
              logger,
            }),
          ]
        : []),
      ...(options.routers ?? []),
    ],
    ...(options.maxConcurrentRequests ? { maxConcurrentRequests: options.maxConcurrentRequests } : {}),
    ...(options.protectedResource ? { protectedResource: options.protectedResource } : {}),
  });
  return {
    app,
    dispatcher,
    engine,
    registry,
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
