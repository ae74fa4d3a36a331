/**
 * Counting a tool's effects in a test: every invoked actor the tool does not list in
 * `safeActors` (the same notion the docs and the start-up checks use), wrapped so each start is
 * counted and then runs as it would (the given stand-in, else the tool's `exampleActors`, else its
 * own implementation). Pass `actors` to `runFlow`:
 *
 *   const effects = countEffects(provisionDatabaseTool);
 *   await runFlow(provisionDatabaseTool, undefined, { confirm: decline() }, { actors: effects.actors });
 *   expect(effects.counts).to.deep.equal({ provision: 0 });
 */
import type { AnyActorLogic, AnyStateMachine } from 'xstate';
import { invokedActors, type ToolDefinition } from '../engine/index.js';

/** What `countEffects` returns: counting stand-ins for the tool's effects, and the counts so far. */
export interface EffectCounter {
  /** Every effect actor of the tool by name, counted: give it to `runFlow` as `actors`. */
  actors: Record<string, AnyActorLogic>;
  /** How often each effect actor started, by name (0 for one that never ran). */
  counts: Record<string, number>;
}

/** The tool's effects: invoked by name, and not listed in `safeActors`. */
export function effectActors(tool: ToolDefinition): string[] {
  const safe = new Set(tool.safeActors ?? []);
  const named = (tool.machine as AnyStateMachine).implementations.actors ?? {};
  return [...new Set(invokedActors(tool.machine).map((invoked) => invoked.src))].filter(
    (name) => !safe.has(name) && (name in named || name in (tool.exampleActors ?? {})),
  );
}

/** The logic with each start counted (a restored actor that is already done does not start again). */
function counted(logic: AnyActorLogic, started: () => void): AnyActorLogic {
  // A child machine is a class instance whose methods need their `this`: it is not wrapped.
  if (typeof (logic as { root?: unknown }).root === 'object') return logic;
  return {
    ...logic,
    start: (snapshot: { status?: string }, scope: unknown) => {
      if (snapshot.status === 'active') started();
      return (logic.start as ((snapshot: unknown, scope: unknown) => void) | undefined)?.(snapshot, scope);
    },
  } as AnyActorLogic;
}

/**
 * Counts the tool's effects; `actors` are stand-ins to count in place of the tool's own (a test's
 * `actors` option), and `started` hears each start as it happens.
 */
export function countEffects(
  tool: ToolDefinition,
  actors: Record<string, AnyActorLogic> = {},
  started: (name: string) => void = () => {},
): EffectCounter {
  const own = ((tool.machine as AnyStateMachine).implementations.actors ?? {}) as Record<string, AnyActorLogic>;
  const counts: Record<string, number> = {};
  const wrapped: Record<string, AnyActorLogic> = {};
  for (const name of effectActors(tool)) {
    const logic = actors[name] ?? tool.exampleActors?.[name] ?? own[name];
    if (!logic) continue;
    counts[name] = 0;
    wrapped[name] = counted(logic, () => {
      counts[name] = counts[name]! + 1;
      started(name);
    });
  }
  return { actors: { ...actors, ...wrapped }, counts };
}
