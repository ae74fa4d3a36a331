/**
 * `defineTool`: a plain XState v5 machine plus the name, description and schemas MCP clients see.
 * The machine's input is the call's `arguments` (already validated against `inputSchema`); its
 * output becomes the tool result (see tool-result.ts).
 */
import type { AnyActorLogic, AnyStateMachine } from 'xstate';
import type { FlowDefinition, FlowOptions } from './flow-definition.js';
import type { TaskSupport } from './task-authoring.js';
import type { EarlierVersion } from './tool-versions.js';

/** Hints about how the tool behaves, for clients to show (spec, server/tools `ToolAnnotations`): hints, not guarantees. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * The responses a tool's questions take, by question key, when nothing says more (`defineTool`
 * with a plain machine, a tool read from JSON): any key, any value. `toolSetup(…).defineTool`
 * gives each key its question's response type instead (question-specs.ts, `ResponsesOf`).
 */
export type UntypedResponses = Record<string, unknown>;

/**
 * Answers by question key, as `inputResponses` values; a list gives one per time the question is
 * asked. Typed from `TResponses`, so with `toolSetup` an undeclared key or a value its question's
 * schema refuses does not compile.
 */
export type AnswersFor<TResponses = UntypedResponses> = { [K in keyof TResponses]?: OneOrList<TResponses[K]> };
/** One answer, or a list of them (one per time the question is asked). */
export type OneOrList<TResponse> = TResponse | readonly TResponse[];

/** One more example run for the docs: its own arguments and answers, shown as its own conversation. */
export interface ToolExample<TResponses = UntypedResponses> {
  /** What the run shows, e.g. "a large database in ap-south is refused, then placed in eu-west". */
  title: string;
  /** The call's arguments (default: `exampleArguments`). */
  arguments?: Record<string, unknown>;
  /** Answers by question key, as `exampleAnswers` (default: `exampleAnswers`, then the schema). */
  answers?: AnswersFor<TResponses>;
}

/** What `defineTool` takes: the tool as tools/list shows it, its machine, and what the docs and checks run. */
export interface ToolSpec<
  TMachine extends AnyStateMachine = AnyStateMachine,
  TResponses = UntypedResponses,
> extends FlowOptions {
  /** 1-128 characters of A-Z a-z 0-9 _ - . (spec, server/tools "Tool names"). */
  name: string;
  title?: string;
  description: string;
  /** JSON Schema (2020-12) with `type: "object"` at the root. */
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  machine: TMachine;
  /**
   * Earlier versions kept beside `machine`, so flows and tasks in flight across a deploy that
   * changed its structure continue (on the kept machine, or migrated) instead of restarting
   * (tool-versions.ts, docs/deploy.md). New calls always start on `machine`.
   */
  versions?: readonly EarlierVersion[];
  /**
   * Whether the tool may run as a task (the `io.modelcontextprotocol/tasks` extension,
   * docs/tasks.md): `optional` or `required`. Absent: never a task.
   */
  task?: TaskSupport;
  /** Example arguments: used for start-up checks and documentation. */
  exampleArguments?: Record<string, unknown>;
  /**
   * Answers the generated docs give, by question key, as `inputResponses` values (an array gives
   * one per time the question is asked). Questions not listed are answered from their schema.
   */
  exampleAnswers?: AnswersFor<TResponses>;
  /** Further example runs, each shown on the tool's docs page after the main one. */
  examples?: Array<ToolExample<TResponses>>;
  /**
   * Stand-ins for invoked actors, by name, when the docs run the example (`machine.provide`). The
   * docs really run the happy path, so give one for every actor with an effect that must not
   * happen (a real deploy) or that waits on the user outside the conversation.
   */
  exampleActors?: Record<string, AnyActorLogic>;
  /**
   * Invoked actors, by name, with no effect outside the process (a lookup, a check). The docs may
   * run them as they are, and they do not count as effects for the single-use start-up check.
   * Every other invoked actor needs a stand-in in `exampleActors` while the docs are served.
   */
  safeActors?: string[];
}

/**
 * A tool ready to serve (`serve({ tools })`, `runFlow`, `describePaths`), as `defineTool` returns
 * it. `TResponses` types the answers the test kit takes for it (from `toolSetup`'s questions).
 */
export interface ToolDefinition<TMachine extends AnyStateMachine = AnyStateMachine, TResponses = UntypedResponses>
  extends ToolSpec<TMachine, TResponses>, FlowDefinition {
  method: 'tools/call';
  machine: TMachine;
}

/**
 * A tool: a plain XState v5 machine with the name, description and schemas MCP clients see. The
 * machine's input is the call's validated `arguments`; the output of the final state it ends in is
 * the tool result. Prefer `toolSetup(…).defineTool`, which takes the schemas from the setup.
 * @example
 * ```ts
 * import { defineTool, respondWith } from 'baton-mcp';
 *
 * export const echoTool = defineTool({
 *   name: 'echo',
 *   description: 'Answers with its arguments.',
 *   inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
 *   machine: respondWith('echo', (input: { text: string }) => input.text),
 * });
 * ```
 */
// Returns the non-generic definition on purpose: lists of tools built from many machine types
// would otherwise make TypeScript compare every machine's full type ("excessively deep").
export function defineTool(spec: ToolSpec): ToolDefinition {
  return Object.freeze({ ...spec, method: 'tools/call' as const });
}
