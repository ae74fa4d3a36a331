/**
 * The transport-free service: the catalogue (tools, prompts, resources, checked at start-up), the
 * flow engine, tasks, and the dispatcher that answers one MCP message at a time. HTTP
 * (`createServer`, Koa) and stdio (`serveStdio`) both sit on it; nothing here knows about either.
 */
import {
  checkToolEffects,
  FlowEngine,
  MemoryTaskQueue,
  MemoryTaskStore,
  PromptRegistry,
  ResourceRegistry,
  stderrLogger,
  definedFields,
  startTaskRuntime,
  type TaskManager,
  ToolRegistry,
  LiveToolRegistry,
  applyStartOn,
  structuralVersion,
  type FlowEngineOptions,
  type KeyRing,
  type Logger,
  type PromptDefinition,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
  type TaskQueue,
  type TaskQuotas,
  type TaskStore,
  type ToolDefinition,
} from './engine/index.js';
import {
  createMcpDispatcher,
  LegacyService,
  LongLivedBudget,
  type ListenOptions,
  type LongLivedKind,
  type LongLivedLimit,
  toProtocolError,
  type LegacyServiceOptions,
  type McpDispatcher,
  type ScopeHierarchy,
  type ServerInfo,
} from './protocol/index.js';
import { BATON_VERSION } from './version.js';
import { Telemetry, tracedLogger, type TelemetryOptions } from './telemetry/index.js';

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
  /**
   * What one caller may store: live tasks (100), bytes of records (16 MiB), the size of one record
   * (1 MiB) (docs/tasks.md, "Limits"). Enforced by the built-in stores.
   */
  quotas?: Partial<TaskQuotas>;
  /** Steps the in-memory queue runs at once (BATON_TASK_CONCURRENCY, 16); BullMQ takes its own. */
  concurrency?: number;
}

/** What `createMcpService` takes: the tools, prompts and resources, the key ring, tasks and limits. */
export interface McpServiceOptions extends Omit<FlowEngineOptions, 'keyRing' | 'logger' | 'telemetry'> {
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
  pageSize?: number;
  /** Tasks, for tools with a `task` option (docs/tasks.md). */
  tasks?: TaskOptions;
  /**
   * Whether the generated docs will run each tool's example (HTTP serves them at GET /docs): then
   * every effect needs a stand-in, checked at start-up (effect-checks.ts). Default: off.
   */
  docs?: boolean;
  /**
   * Also serve clients of the older, stateful wire (2025-11-25: initialize, sessions,
   * server-to-client requests). Default: on; `false` serves 2026-07-28 only.
   */
  legacy?: boolean | Omit<LegacyServiceOptions, 'dispatcher' | 'keyRing' | 'logger' | 'longLived' | 'resourceExists'>;
  /**
   * Broader OAuth scopes and the narrower ones each implies, e.g. `{ 'deploy:admin':
   * ['deploy:write'] }`: a token with the broader scope may use what needs the narrower one.
   */
  scopeHierarchy?: ScopeHierarchy;
  /**
   * Where spans and metrics go (docs/observability.md). Default: OpenTelemetry's global
   * providers, which record nothing until the host registers an SDK (before this call, for metrics).
   */
  telemetry?: TelemetryOptions;
  /**
   * Requests that live long have their own budget, per caller and per instance, apart from the
   * request gate: `listen_streams` (subscriptions/listen) and `waiting_calls` (2025-11-25 calls
   * waiting for an answer). Defaults: 16 per caller, 512 per instance, each (docs/configuration.md).
   */
  longLived?: Partial<Record<LongLivedKind, Partial<LongLivedLimit>>> | undefined;
  /** A listen stream's keep-alive interval, maximum lifetime and task ids followed. */
  listen?: Partial<Omit<ListenOptions, 'budget'>> | undefined;
  /**
   * Tools whose new calls start on a kept earlier version, by tool name: the version's label or
   * structural version (`{ release: 'v1' }`, BATON_START_ON=release=v1). For the first step of a
   * rolling deploy, while instances of the earlier build still serve (docs/deploy.md).
   */
  startOn?: Readonly<Record<string, string>> | undefined;
}

/** The transport-free service: give its `dispatcher` one MCP message at a time; `close` stops its tasks. */
export interface McpService {
  dispatcher: McpDispatcher;
  engine: FlowEngine;
  registry: ToolRegistry;
  /** Present when some tool may run as a task. */
  tasks?: TaskManager | undefined;
  /** The 2025-11-25 layer (undefined when `legacy: false`); `resourceUpdated(uri)` notifies its subscribers. */
  legacy: LegacyService | undefined;
  logger: Logger;
  telemetry: Telemetry;
  /** Stops running task steps and closes the task store and queue. */
  close(): Promise<void>;
}

/** The task manager and the runner that works its queue, when some tool may run as a task. */
function startTasks(
  options: McpServiceOptions,
  registry: ToolRegistry,
  engine: FlowEngine,
  logger: Logger,
  telemetry: Telemetry,
) {
  if (!registry.list().some((tool) => tool.task !== undefined)) return undefined;
  const clock = options.clock ?? Date.now;
  const store = options.tasks?.store ?? new MemoryTaskStore({ clock });
  const queue = options.tasks?.queue ?? new MemoryTaskQueue(definedFields({ concurrency: options.tasks?.concurrency }));
  return startTaskRuntime({
    store,
    queue,
    tools: registry,
    versionOf: (machine) => engine.versionOf(machine),
    toWireError: (error) => toProtocolError(error).toJSON(),
    logger,
    clock,
    telemetry,
    ...definedFields({
      randomBytes: options.randomBytes,
      ttlMs: options.tasks?.ttlMs,
      pollIntervalMs: options.tasks?.pollIntervalMs,
      stepBudgetMs: options.tasks?.stepBudgetMs,
      quotas: options.tasks?.quotas,
      // The instance's id (createServer's, `Baton-Instance`) names it in each task's timeline.
      instanceId: telemetry.instanceId,
    }),
  });
}

/**
 * The MCP service without a transport, for a transport of your own: the catalogue checked at
 * start-up, the flow engine, tasks, and the dispatcher that answers each message. `createServer`
 * and `serveStdio` sit on it.
 */
export function createMcpService(options: McpServiceOptions): McpService {
  // Log lines name the span they were written in (trace_id, span_id) when one is active.
  const logger = tracedLogger(options.logger ?? stderrLogger);
  const telemetry = new Telemetry({ version: BATON_VERSION, ...options.telemetry });
  const tools = applyStartOn(options.tools, options.startOn, structuralVersion);
  const registry = options.liveTools ? new LiveToolRegistry(tools) : new ToolRegistry(tools);
  for (const warning of registry.warnings) logger.warn('tool_warning', { warning });
  checkToolEffects(registry.list(), { docs: options.docs ?? false, logger });
  const engine = new FlowEngine({ ...options, logger, telemetry });
  const tasks = startTasks(options, registry, engine, logger, telemetry);
  const longLived = new LongLivedBudget(options.longLived);
  const resources = new ResourceRegistry(options.resources ?? []);
  const prompts = new PromptRegistry(options.prompts ?? []);
  // Metric labels and span names only from the catalogue: a client's text becomes `unknown`.
  telemetry.useCatalogue({
    has: (method, name) =>
      method === 'tools/call'
        ? registry.get(name) !== undefined
        : method === 'prompts/get'
          ? prompts.get(name) !== undefined
          : method === 'resources/read' && resources.defines(name),
  });
  const dispatcher = createMcpDispatcher({
    longLived,
    listen: options.listen,
    serverInfo: options.serverInfo ?? { name: 'baton', version: BATON_VERSION },
    tools: registry,
    prompts,
    resources,
    engine,
    logger,
    telemetry,
    tasks: tasks?.manager,
    instructions: options.instructions,
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    scopeHierarchy: options.scopeHierarchy,
  });
  const legacy =
    options.legacy === false
      ? undefined
      : new LegacyService({
          ...(typeof options.legacy === 'object' ? options.legacy : {}),
          dispatcher,
          keyRing: options.keyRing,
          logger,
          longLived,
          resourceExists: (uri) => resources.resolve(uri) !== undefined,
          ...(options.clock ? { clock: options.clock } : {}),
          ...(options.stateTtlSeconds ? { stateTtlSeconds: options.stateTtlSeconds } : {}),
          ...(options.instructions ? { instructions: options.instructions } : {}),
        });
  if (legacy) telemetry.metrics?.observe({ legacySessions: () => legacy.sessionCount });
  return {
    dispatcher,
    engine,
    registry,
    logger,
    telemetry,
    legacy,
    tasks: tasks?.manager,
    close: async () => {
      await tasks?.close();
    },
  };
}
