/**
 * The composition root: one call builds a Baton server from tools and options. Every dependency
 * (key ring, clock, randomness, logger, auth) is injected with a default; there are no module
 * singletons, so tests run several independent servers in one process.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import type Router from '@koa/router';
import type Koa from 'koa';
import {
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
  createHttpApp,
  isLoopbackHost,
  LOOPBACK_HOSTS,
  type Authenticate,
  type OriginPolicy,
  type ProtectedResourceOptions,
} from './http/index.js';
import { docsRouter } from './http/docs-routes.js';
import {
  createMcpDispatcher,
  LegacyService,
  type LegacyServiceOptions,
  type McpDispatcher,
  type ServerInfo,
} from './protocol/index.js';
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
  /**
   * Also serve clients of the older, stateful wire (2025-11-25: initialize, sessions,
   * server-to-client requests) on the same endpoint. Default: on; `false` serves 2026-07-28 only.
   */
  legacy?: boolean | Omit<LegacyServiceOptions, 'dispatcher' | 'keyRing' | 'logger'>;
}

export interface BatonServer {
  app: Koa;
  dispatcher: McpDispatcher;
  engine: FlowEngine;
  registry: ToolRegistry;
  instanceId: string;
  /** The 2025-11-25 layer (undefined when `legacy: false`); `resourceUpdated(uri)` notifies its subscribers. */
  legacy: LegacyService | undefined;
  /** Starts listening; resolves with the bound address and the endpoint URL. */
  listen(port: number, host?: string): Promise<{ server: Server; url: string }>;
}

export function createServer(options: BatonOptions): BatonServer {
  const logger = options.logger ?? stderrLogger;
  const registry = new ToolRegistry(options.tools);
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
  const legacy =
    options.legacy === false
      ? undefined
      : new LegacyService({
          ...(typeof options.legacy === 'object' ? options.legacy : {}),
          dispatcher,
          keyRing: options.keyRing,
          logger,
          ...(options.clock ? { clock: options.clock } : {}),
          ...(options.stateTtlSeconds ? { stateTtlSeconds: options.stateTtlSeconds } : {}),
          ...(options.instructions ? { instructions: options.instructions } : {}),
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
    headerParamsOf: (name) => registry.headerParams(name),
    ...(legacy ? { legacy } : {}),
    routers: [
      ...((options.docs ?? !options.authenticate)
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
    legacy,
    listen(port, listenHost = host) {
      return new Promise((resolve, reject) => {
        const server = app.listen(port, listenHost);
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
