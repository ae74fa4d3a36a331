/** Assembles the method table for a set of tools. Prompts and resources plug in here too. */
import type { FlowEngine, Logger, ToolRegistry } from '../engine/index.js';
import { McpDispatcher, type ServerInfo } from './mcp-dispatcher.js';
import { discoverMethod } from './methods/discover.js';
import { toolsCallMethod } from './methods/tools-call.js';
import { toolsListMethod } from './methods/tools-list.js';

export interface McpServiceOptions {
  serverInfo: ServerInfo;
  tools: ToolRegistry;
  engine: FlowEngine;
  logger: Logger;
  instructions?: string;
  /** Freshness of discover and list results (ttlMs). */
  discoverTtlMs?: number;
  listTtlMs?: number;
  /** Items per list page. */
  pageSize?: number;
}

export function createMcpDispatcher(options: McpServiceOptions): McpDispatcher {
  // The tool list is fixed for the life of a process, so no listChanged is advertised.
  const capabilities = () => ({ tools: {} });
  return new McpDispatcher({
    serverInfo: options.serverInfo,
    capabilities,
    logger: options.logger,
    methods: {
      'server/discover': discoverMethod({
        capabilities,
        ttlMs: options.discoverTtlMs ?? 60 * 60 * 1000,
        ...(options.instructions ? { instructions: options.instructions } : {}),
      }),
      'tools/list': toolsListMethod(options.tools, {
        ttlMs: options.listTtlMs ?? 5 * 60 * 1000,
        pageSize: options.pageSize ?? 100,
      }),
      'tools/call': toolsCallMethod(options.tools, options.engine),
    },
  });
}
