/**
 * What every machine-backed MCP primitive shares: a name, a machine, and how long its sealed
 * state lives. Tools are the first kind (`defineTool`); prompts and resources reuse the same
 * engine with their own method bound into the state.
 */
import type { AnyStateMachine } from 'xstate';
import type { CatalogueFields } from './catalogue-fields.js';
import type { EarlierVersion } from './tool-versions.js';

/** Options every tool, prompt and resource takes: how long its sealed state lives, its round budget, single use. */
export interface FlowOptions extends CatalogueFields {
  /** Seconds a sealed state stays valid; overrides the server default (`BATON_STATE_TTL`). */
  stateTtlSeconds?: number;
  /** Milliseconds one round may run (invoked promises included) before it fails. */
  timeBudgetMs?: number;
  /**
   * Every sealed state of this flow may be presented once only (see replay-guard.ts). For one
   * step only, pass `singleUse: true` to the ask… helper of the question before the effect.
   */
  singleUse?: boolean;
}

/** What the engine runs for a tool, prompt or resource: its method, name and machine. */
export interface FlowDefinition extends FlowOptions {
  /** The MCP method the flow answers (`tools/call`, `prompts/get`, `resources/read`). */
  method: string;
  name: string;
  /**
   * The catalogue's name for it when `name` is the client's text: a resource read's registered
   * URI or template. Telemetry records this, never `name` (docs/observability.md).
   */
  catalogueName?: string;
  /** A plain XState v5 machine; its input is the request's arguments. */
  machine: AnyStateMachine;
  /** Earlier versions whose sealed states continue instead of restarting (tools declare them). */
  versions?: readonly EarlierVersion[];
}
