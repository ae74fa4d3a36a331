/**
 * Start-up checks for tools that may run as tasks, each naming the tool, the state and the fix.
 */
import type { AnyStateMachine } from 'xstate';
import type { ToolDefinition } from '../authoring/tool-definition.js';
import { eachStateNode } from '../state-nodes.js';

const TASK_SUPPORT = new Set<unknown>(['optional', 'required']);

export function taskProblems(tool: ToolDefinition): string[] {
  const label = `tool "${tool.name}"`;
  if (tool.task === undefined) return [];
  if (!TASK_SUPPORT.has(tool.task)) {
    return [`${label}: task must be "optional" or "required", got ${JSON.stringify(tool.task)}.`];
  }
  const machine = tool.machine as AnyStateMachine | undefined;
  if (!machine?.root) return [];
  const named = new Set(Object.keys(machine.implementations.actors ?? {}));
  const problems: string[] = [];
  eachStateNode(machine.root, (node) => {
    for (const invoke of node.invoke) {
      // The round before a task starts parks named actors; inline logic would start in the request.
      if (!named.has(invoke.src as string)) {
        problems.push(
          `${label}, state "${node.id}": a tool that runs as a task must invoke actors by name. Register the logic in setup({ actors: { name: … } }) and write invoke: { src: 'name' }.`,
        );
      }
    }
  });
  return problems;
}
