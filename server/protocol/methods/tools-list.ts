/** `tools/list` (spec, server/tools): deterministic order, paginated, cacheable. */
import type { ToolDefinition, ToolRegistry } from '../../engine/index.js';
import { hintsFor } from '../caching-hints.js';
import type { MethodSpec } from '../method-context.js';
import { paginate } from '../pagination.js';

/** The public face of a tool: what clients and models see. The machine stays on the server. */
export function describeTool(tool: ToolDefinition): Record<string, unknown> {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
}

export function toolsListMethod(registry: ToolRegistry, options: { ttlMs: number; pageSize: number }): MethodSpec {
  return {
    capability: 'tools',
    async handle({ params, principal }) {
      const page = paginate(registry.list(), (tool) => tool.name, params.cursor, options.pageSize);
      return {
        tools: page.items.map(describeTool),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        ...hintsFor(options.ttlMs, principal),
      };
    },
  };
}
