/**
 * A tool registry whose list can change while the server runs (`baton dev` reloading a project's
 * tools). Each new list is checked exactly as at start-up, and a list with problems is refused
 * whole: the previous one keeps being served. Listeners hear of every accepted change, which
 * `subscriptions/listen` forwards as `notifications/tools/list_changed`.
 */
import type { ToolDefinition } from '../authoring/tool-definition.js';
import type { CallToolResult } from '../mcp-shapes.js';
import { ToolRegistry } from './tool-registry.js';

export class LiveToolRegistry extends ToolRegistry {
  #current: ToolRegistry;
  readonly #listeners = new Set<() => void>();

  constructor(tools: ToolDefinition[]) {
    super([]);
    this.#current = new ToolRegistry(tools);
    this.warnings.push(...this.#current.warnings);
  }

  /** Serves `tools` from now on, or throws the start-up ConfigurationError and keeps the old list. */
  replace(tools: ToolDefinition[]): void {
    const next = new ToolRegistry(tools);
    this.#current = next;
    this.warnings.splice(0, this.warnings.length, ...next.warnings);
    for (const listener of this.#listeners) listener();
  }

  /** Calls `listener` after each accepted change; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  override list(): ToolDefinition[] {
    return this.#current.list();
  }
  override get(name: string): ToolDefinition | undefined {
    return this.#current.get(name);
  }
  override headerParams(name: string) {
    return this.#current.headerParams(name);
  }
  override checkResult(tool: ToolDefinition, result: CallToolResult): string | undefined {
    return this.#current.checkResult(tool, result);
  }
  override checkArguments(tool: ToolDefinition, args: unknown): string | undefined {
    return this.#current.checkArguments(tool, args);
  }
}

/** Where a registry can tell of changes to its list: only a live one. */
export type ToolListChanges = Pick<LiveToolRegistry, 'onChange'>;

export function toolListChanges(registry: ToolRegistry): ToolListChanges | undefined {
  return registry instanceof LiveToolRegistry ? registry : undefined;
}
