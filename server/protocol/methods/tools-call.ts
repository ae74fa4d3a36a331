/**
 * `tools/call` with multi round-trip requests (spec, server/tools and basic/patterns/mrtr): the
 * tool's machine runs until it settles; a waiting machine answers `input_required` with the
 * questions and a sealed `requestState`, which the client echoes on its retry.
 */
import {
  declaresTasks,
  finalToolResult,
  toolError,
  type FlowEngine,
  type Logger,
  type TaskManager,
  type ToolRegistry,
} from '../../engine/index.js';
import type { MethodSpec } from '../method-context.js';
import { invalidParams } from '../protocol-error.js';
import { tasksRequired } from './tasks-methods.js';
import { callerKey } from '../long-lived-budget.js';
import { runFlowRound, type FlowRound } from './flow-call.js';
import { isRecord } from '../../engine/index.js';

/**
 * With `tasks`, a tool that may run as a task does so for a client that declared the extension
 * in this request's `_meta` (the server alone decides; tasks.md, "Capability Negotiation"): the
 * round runs until long work starts, then hands over. A tool that requires a task refuses any
 * other client with -32021 before anything runs.
 */
export function toolsCallMethod(
  registry: ToolRegistry,
  engine: FlowEngine,
  logger: Logger,
  tasks?: TaskManager,
): MethodSpec {
  return {
    capability: 'tools',
    handle(context) {
      const { name, arguments: args = {} } = context.params;
      if (typeof name !== 'string') throw invalidParams('Invalid params: name must be a string');
      if (!isRecord(args)) throw invalidParams('Invalid params: arguments must be an object');
      const tool = registry.get(name);
      if (!tool) throw invalidParams(`Unknown tool: ${name}`);
      // Input validation failures are tool execution errors the model can correct (SEP-1303).
      const problem = registry.checkArguments(tool, args);
      if (problem) return { ...toolError(`Invalid arguments for tool ${name}: ${problem}`) };
      const asTask = tasks !== undefined && tool.task !== undefined && declaresTasks(context.meta.clientCapabilities);
      if (tool.task === 'required' && !asTask) throw tasksRequired(`Tool ${name} runs only as a task`);
      const round: FlowRound = {
        flow: tool,
        arguments: args,
        finish: (outcome) => {
          if (outcome.kind !== 'complete') return { ...toolError(outcome.message) };
          return {
            ...finalToolResult(
              tool,
              outcome.output,
              (checked, result) => registry.checkResult(checked, result),
              logger,
            ),
          };
        },
      };
      if (asTask) {
        round.startTask = async (handover) => ({
          resultType: 'task',
          ...(await tasks.create({
            tool: tool.name,
            // A flow on a kept earlier version hands over on that version's machine.
            machine: handover.machine,
            arguments: args,
            principal: context.principal.id,
            owner: callerKey(context.principal),
            clientCapabilities: context.meta.clientCapabilities,
            snapshot: handover.snapshot,
            timers: handover.timers,
            ...(handover.traceContext ? { traceContext: handover.traceContext } : {}),
          })),
        });
      }
      return runFlowRound(engine, context, round);
    },
  };
}
