/**
 * `tools/call` with multi round-trip requests (spec, server/tools and basic/patterns/mrtr): the
 * tool's machine runs until it settles; a waiting machine answers `input_required` with the
 * questions and a sealed `requestState`, which the client echoes on its retry.
 */
import { toToolResult, toolError, type FlowEngine, type ToolRegistry } from '../../engine/index.js';
import type { MethodSpec } from '../method-context.js';
import { invalidParams } from '../protocol-error.js';
import { runFlowRound } from './flow-call.js';
import { isRecord } from '../../engine/index.js';

export function toolsCallMethod(registry: ToolRegistry, engine: FlowEngine): MethodSpec {
  return {
    capability: 'tools',
    async handle(context) {
      const { name, arguments: args = {} } = context.params;
      if (typeof name !== 'string') throw invalidParams('Invalid params: name must be a string');
      if (!isRecord(args)) throw invalidParams('Invalid params: arguments must be an object');
      const tool = registry.get(name);
      if (!tool) throw invalidParams(`Unknown tool: ${name}`);
      // Input validation failures are tool execution errors the model can correct (SEP-1303).
      const problem = registry.checkArguments(tool, args);
      if (problem) return { ...toolError(`Invalid arguments for tool ${name}: ${problem}`) };
      return runFlowRound(engine, context, {
        flow: tool,
        arguments: args,
        finish: (outcome) =>
          outcome.kind === 'complete' ? { ...toToolResult(outcome.output) } : { ...toolError(outcome.message) },
      });
    },
  };
}
