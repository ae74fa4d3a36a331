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
  MemoryTaskQueue,
  MemoryTaskStore,
  PromptRegistry,
  TaskManager,
  TaskRunner,
  ResourceRegistry,
  stderrLogger,
  ToolRegistry,
  LiveToolRegistry,
  type FlowEngineOptions,
  type KeyRing,
  type Logger,
  type PromptDefinition,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
  type TaskQueue,
  type TaskStore,
  type ToolDefinition,
} from './engine/index.js';
import { JsonSchemaValidator } from './engine/json-schema-validator.js';
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
import {
  createMcpDispatcher,
  LegacyService,
  type LegacyServiceOptions,
  type McpDispatcher,
  type ServerInfo,
} from './protocol/index.js';
import { BATON_VERSION } from './version.js';

/** Where tasks live and run (docs/tasks.md). Defaults: this process's memory, one instance. */
export interface TaskOptions {
  store?: TaskStore;
  queue?: TaskQueue;
  /** ttlMs of a new task (BATON_TASK_TTL, in seconds there). Default 24 h. */
  ttlMs?: number;
  /** pollIntervalMs suggested to clients (BATON_TASK_POLL_MS). Default 1 s. */
  pollIntervalMs?: number;
  /** Longest one step of a task may run (BATON_TASK_STEP_BUDGET_MS). Default 1 h. */
  stepBudgetMs?: number;
}

export interface BatonOptions extends Omit<FlowEngineOptions, 'keyRing' | 'logger'> {
  tools: ToolDefinition[];
  /**
   * The tool list may change while serving (`baton dev`): `registry` is then a LiveToolRegistry,
   * `tools.listChanged` is advertised and subscriptions/listen streams each change.
   */
  liveTools?: boolean;
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
  /** Tasks, for tools with a `task` option (docs/tasks.md). */
  tasks?: TaskOptions;
  /**
   * With `authenticate` and `docs` both on: let the tool pages' "Try it" panel send the bearer
   * token the reader types in (Authorization header). Off by default: the panel sends no
   * credentials, so a page can never spend a user's token unasked.
   */
  tryItSendsToken?: boolean;
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
  /** Present when some tool may run as a task. */
  tasks?: TaskManager;
  /** The 2025-11-25 layer (undefined when `legacy: false`); `resourceUpdated(uri)` notifies its subscribers. */
  legacy: LegacyService | undefined;
  /** Starts listening; resolves with the bound address and the endpoint URL. */
  listen(port: number, host?: string): Promise<{ server: Server; url: string }>;
  /** Stops running task steps and closes the task store and queue (the HTTP server is the caller's). */
  close(): Promise<void>;
}

/** The task manager and the runner that works its queue, when some tool may run as a task. */
function startTasks(options: BatonOptions, registry: ToolRegistry, engine: FlowEngine, logger: Logger) {
  if (!registry.list().some((tool) => tool.task !== undefined)) return undefined;
  const clock = options.clock ?? Date.now;
  const store = options.tasks?.store ?? new MemoryTaskStore({ clock });
  const queue = options.tasks?.queue ?? new MemoryTaskQueue();
  const versionOf = (machine: Parameters<FlowEngine['versionOf']>[0]) => engine.versionOf(machine);
  const manager = new TaskManager({
    store,
    queue,
    versionOf,
    clock,
    ...(options.randomBytes ? { randomBytes: options.randomBytes } : {}),
    ...(options.tasks?.ttlMs ? { ttlMs: options.tasks.ttlMs } : {}),
    ...(options.tasks?.pollIntervalMs ? { pollIntervalMs: options.tasks.pollIntervalMs } : {}),
  });
  const runner = new TaskRunner({
    store,
    queue,
    tools: registry,
    versionOf,
    validator: new JsonSchemaValidator(),
    clock,
    logger,
    ...(options.tasks?.stepBudgetMs ? { stepBudgetMs: options.tasks.stepBudgetMs } : {}),
  });
  queue.start((taskId, jobId) => runner.advance(taskId, jobId));
  const close = async () => {
    runner.close();
    await queue.close();
    await store.close();
  };
  return { manager, close };
}

export function createServer(options: BatonOptions): BatonServer {
  const logger = options.logger ?? stderrLogger;
  const registry = options.liveTools ? new LiveToolRegistry(options.tools) : new ToolRegistry(options.tools);
  for (const warning of registry.warnings) logger.warn('tool_warning', { warning });
  const docs = options.docs ?? !options.authenticate;
  checkToolEffects(registry.list(), { docs, logger });
  const engine = new FlowEngine({ ...options, logger });
  const tasks = startTasks(options, registry, engine, logger);
  const dispatcher = createMcpDispatcher({
    serverInfo: options.serverInfo ?? { name: 'baton', version: BATON_VERSION },
    tools: registry,
    prompts: new PromptRegistry(options.prompts ?? []),
    resources: new ResourceRegistry(options.resources ?? []),
    engine,
    logger,
    ...(tasks ? { tasks: tasks.manager } : {}),
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
    ...(options.maxBodyBytesInFlight ? { maxBodyBytesInFlight: options.maxBodyBytesInFlight } : {}),
    ...(options.maxBodyBytesPerClient ? { maxBodyBytesPerClient: options.maxBodyBytesPerClient } : {}),
    headerParamsOf: (name) => registry.headerParams(name),
    ...(legacy ? { legacy } : {}),
    routers: [
      ...(docs
        ? [
            docsRouter({
              content: { tools: registry.list(), prompts: options.prompts, resources: options.resources },
              logger,
              endpoint: path,
              tryItAuth: !options.authenticate ? 'open' : options.tryItSendsToken ? 'token' : 'withheld',
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
    ...(tasks ? { tasks: tasks.manager } : {}),
    close: async () => {
      await tasks?.close();
    },
    legacy,
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
