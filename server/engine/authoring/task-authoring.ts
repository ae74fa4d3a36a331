/**
 * What a tool author writes to run a machine as a task (the `io.modelcontextprotocol/tasks`
 * extension, docs/tasks.md): whether the tool may or must run as one, where the task starts, and
 * the key that makes an invoked effect safe to run again after a crash.
 */
import type { ActorSystem, AnyActorRef } from 'xstate';

type AnyActorSystem = ActorSystem<any>;

/**
 * `optional`: a client that declared the extension gets a task once the machine reaches long
 * work; any other client gets the same flow synchronously (multi round-trip requests).
 * `required`: only clients that declared the extension can call the tool (-32021 otherwise).
 */
export type TaskSupport = 'optional' | 'required';

/**
 * Tags a state from which the flow runs as a task even though it does no work yet (a question
 * asked inside the task, through `tasks/get` and `tasks/update`). Without it, the task starts at
 * the first state that invokes an actor or waits on an `after` timer.
 */
export const TASK_TAG = 'baton.task';

/** Marks a state node config as the start of the task (adds the `baton.task` tag). */
export function startsTask<T extends object>(state: T): T {
  const own = (state as { tags?: string | readonly string[] }).tags;
  const tags = own === undefined ? [] : typeof own === 'string' ? [own] : [...own];
  return { ...state, tags: [...tags, TASK_TAG] };
}

/**
 * What the engine knows about the run an actor system belongs to (a task, or one MRTR round).
 * Kept on `globalThis` under a registered symbol, not in this module: a tools module may run
 * with its own copy of this file (`baton serve` loads TypeScript tools in a tsx namespace, and a
 * project can hold two installs of baton-mcp), and the engine's copy registers what the tool's
 * copy reads.
 */
const SCOPES: unique symbol = Symbol.for('baton-mcp.runScopes') as never;
const shared = globalThis as { [SCOPES]?: WeakMap<AnyActorSystem, string> };
const scopes = (shared[SCOPES] ??= new WeakMap());

/** Called by the engine when it creates the actor that runs a task or a round. */
export function registerRunScope(system: AnyActorSystem, scope: string): void {
  scopes.set(system, scope);
}

/**
 * A key for the effect an invoked actor performs, stable across retries of the same step: in a
 * task, the task id plus the invoked actor's id (which names its state), so a step re-run on
 * another instance after a crash presents the same key and the effect's API can drop the repeat.
 * Pass it to the API that performs the effect (an `Idempotency-Key` header, a unique column).
 */
export function idempotencyKey({ self, system }: { self: AnyActorRef; system: AnyActorSystem }): string {
  const scope = scopes.get(system);
  if (scope === undefined) throw new Error('idempotencyKey() works only inside an actor that Baton runs');
  return `${scope}/${self.id}`;
}
