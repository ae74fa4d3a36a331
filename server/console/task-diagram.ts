/**
 * A task's place on its tool's diagram: the docs site's Mermaid state diagram (the same text the
 * tool's page draws), and the Mermaid ids of the states the task is in now (`current`: the leaf
 * states of its snapshot) and of the composite states around them (`around`), and of the states
 * its timeline says it has been in (`visited`), for the browser to highlight (assets/console.js).
 * State names come from the machine, never from a caller.
 */
import type { ToolDefinition } from '../engine/index.js';
import { keyPath, machineGraph, StateDiagramWriter } from '../docs-site/index.js';

export interface TaskDiagram {
  source: string;
  current: string[];
  around: string[];
  /** States it has been in, besides the current ones. */
  visited: string[];
}

/** `states` are key paths from the root (`awaitingApproval`, `deploy.waiting`), as TaskSummary lists them. */
export function taskDiagram(
  tool: ToolDefinition,
  states: readonly string[],
  visitedStates: readonly string[] = [],
): TaskDiagram {
  const graph = machineGraph(tool.machine);
  const writer = new StateDiagramWriter(graph);
  const byPath = new Map(graph.nodes.filter((node) => node !== graph.root).map((node) => [keyPath(node), node]));
  const current = new Set<string>();
  const around = new Set<string>();
  for (const path of states) {
    const node = byPath.get(path);
    if (!node) continue;
    current.add(writer.nodeId(node));
    for (let parent = node.parent; parent && parent !== graph.root; parent = parent.parent) {
      around.add(writer.nodeId(parent));
    }
  }
  const visited = new Set<string>();
  for (const path of visitedStates) {
    const node = byPath.get(path);
    if (node && !current.has(writer.nodeId(node))) visited.add(writer.nodeId(node));
  }
  return { source: writer.write(), current: [...current], around: [...around], visited: [...visited] };
}
