/** `tools/list` (spec, server/tools): deterministic order, paginated, cacheable. */
import type { ToolDefinition, ToolRegistry } from '../../engine/index.js';
import type { MethodSpec } from '../method-context.js';
import { listMethod, type ListOptions } from './list-method.js';

/** The public face of a tool: what clients and models see. The machine stays on the server. */
export function describeTool(tool: ToolDefinition): Record<string, unknown> {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.icons ? { icons: tool.icons } : {}),
    ...(tool._meta ? { _meta: tool._meta } : {}),
  };
}

export function toolsListMethod(registry: ToolRegistry, options: ListOptions): MethodSpec {
  return listMethod(
    { capability: 'tools', field: 'tools', items: () => registry.list(), keyOf: (t) => t.name, describe: describeTool },
    options,
  );
}
