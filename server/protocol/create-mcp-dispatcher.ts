/**
 * Assembles the method table for a set of tools, prompts and resources. Capabilities follow what
 * is served, so discover never advertises a method that would answer -32601 (spec, discover).
 */
import type { Telemetry } from '../telemetry/index.js';
import {
  TASKS_EXTENSION,
  toolListChanges,
  type FlowEngine,
  type Logger,
  type PromptRegistry,
  type ResourceRegistry,
  type TaskManager,
  type ToolRegistry,
} from '../engine/index.js';
import { DISCOVER_TTL_MS, LIST_TTL_MS, READ_TTL_MS } from './caching-hints.js';
import { McpDispatcher, type ServerInfo } from './mcp-dispatcher.js';
import type { MethodSpec } from './method-context.js';
import { completionMethod } from './methods/completion.js';
import { discoverMethod } from './methods/discover.js';
import { promptsGetMethod, promptsListMethod } from './methods/prompts.js';
import { resourcesListMethod, resourcesReadMethod, resourceTemplatesListMethod } from './methods/resources.js';
import {
  DEFAULT_LISTEN_OPTIONS,
  subscriptionsListenMethod,
  type ListenOptions,
} from './methods/subscriptions-listen.js';
import { LongLivedBudget } from './long-lived-budget.js';
import { tasksCancelMethod, tasksGetMethod, tasksUpdateMethod } from './methods/tasks-methods.js';
import { toolsCallMethod } from './methods/tools-call.js';
import { toolsListMethod } from './methods/tools-list.js';
import { catalogueScopes, withScopeChecks } from './scoped-methods.js';
import { ScopePolicy, type ScopeHierarchy } from './scope-policy.js';

export interface McpDispatcherOptions {
  serverInfo: ServerInfo;
  tools: ToolRegistry;
  prompts: PromptRegistry;
  resources: ResourceRegistry;
  engine: FlowEngine;
  logger: Logger;
  instructions?: string | undefined;
  /** Items per list page. */
  pageSize?: number;
  /** Tasks (the `io.modelcontextprotocol/tasks` extension): served when a tool may run as one. */
  tasks?: TaskManager | undefined;
  /** Broader OAuth scopes and the narrower ones each implies (docs/security.md, "Scopes"). */
  scopeHierarchy?: ScopeHierarchy | undefined;
  /** Spans and metrics per request (telemetry/). */
  telemetry?: Telemetry | undefined;
  /** The budget of long-lived requests (listen streams), shared with the 2025-11-25 layer. */
  longLived?: LongLivedBudget;
  /** Keep-alive, lifetime and task ids of one listen stream (subscriptions-listen.ts). */
  listen?: Partial<Omit<ListenOptions, 'budget'>> | undefined;
}

export function createMcpDispatcher(options: McpDispatcherOptions): McpDispatcher {
  const { tools, prompts, resources, engine } = options;
  // Lists are fixed for the life of a process (no listChanged or subscribe advertised), except
  // live tools (`baton dev`), whose changes subscriptions/listen streams.
  const toolChanges = toolListChanges(tools);
  const capabilities: Record<string, unknown> = { tools: toolChanges ? { listChanged: true } : {} };
  if (prompts.size > 0) capabilities.prompts = {};
  if (resources.size > 0) capabilities.resources = {};
  if (prompts.size > 0 || resources.templates().length > 0) capabilities.completions = {};
  // Advertised only when some tool can become a task, so discover never offers an empty extension.
  const tasks = tools.list().some((tool) => tool.task !== undefined) ? options.tasks : undefined;
  if (tasks) capabilities.extensions = { [TASKS_EXTENSION]: {} };
  const access = new ScopePolicy(options.scopeHierarchy);
  // Live tools (`baton dev`) may gain scopes while serving, so they are always checked.
  const scoped =
    toolChanges !== undefined ||
    catalogueScopes([...tools.list(), ...prompts.list(), ...resources.resources(), ...resources.templates()]).length >
      0;
  const list = {
    ttlMs: LIST_TTL_MS,
    pageSize: options.pageSize ?? 100,
    ...(scoped ? { access } : {}),
  };
  const listen = { ...DEFAULT_LISTEN_OPTIONS, ...options.listen, budget: options.longLived ?? new LongLivedBudget() };
  const methods: Record<string, MethodSpec> = {
    'server/discover': discoverMethod({
      capabilities: () => capabilities,
      ttlMs: DISCOVER_TTL_MS,
      ...(options.instructions ? { instructions: options.instructions } : {}),
    }),
    'tools/list': toolsListMethod(tools, list),
    'tools/call': toolsCallMethod(tools, engine, options.logger, tasks),
    'prompts/list': promptsListMethod(prompts, list),
    'prompts/get': promptsGetMethod(prompts, engine),
    'resources/list': resourcesListMethod(resources, list),
    'resources/templates/list': resourceTemplatesListMethod(resources, list),
    'resources/read': resourcesReadMethod(resources, engine, { ttlMs: READ_TTL_MS }),
    'completion/complete': completionMethod(prompts, resources),
    'subscriptions/listen': subscriptionsListenMethod(listen, tasks, toolChanges),
  };
  if (tasks) {
    methods['tasks/get'] = tasksGetMethod(tasks);
    methods['tasks/update'] = tasksUpdateMethod(tasks);
    methods['tasks/cancel'] = tasksCancelMethod(tasks);
  }
  return new McpDispatcher({
    serverInfo: options.serverInfo,
    capabilities: () => capabilities,
    logger: options.logger,
    telemetry: options.telemetry,
    methods: scoped
      ? withScopeChecks(methods, { tools, prompts, resources, tasks }, access, { listenMaxTaskIds: listen.maxTaskIds })
      : methods,
  });
}
