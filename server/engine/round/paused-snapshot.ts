/**
 * The snapshot a paused machine continues from, taken from the live actor and checked to cross
 * a pause: whether a round seals it into requestState, a handover gives it to a task, or a task
 * step stores it. Its context must survive superjson, and its children must be restorable by
 * name; finished children spawned from inline logic are dropped.
 */
import type { AnyActor } from 'xstate';
import { isRecord } from '../plain-objects.js';
import { findUnserializable } from './serializable-context.js';

/** A persisted XState snapshot, as JSON-faithful data. */
export type Persisted = Record<string, unknown>;

/**
 * Walks persisted children: finished children spawned from inline logic are dropped (their logic
 * has no name to restore it by, and a finished child has nothing left to do); a live one is a
 * problem. Context and output of every child must survive superjson too.
 */
function checkChildren(persisted: Persisted, prefix: string): string | undefined {
  const children = isRecord(persisted.children) ? persisted.children : {};
  for (const [id, entry] of Object.entries(children)) {
    if (!isRecord(entry) || !isRecord(entry.snapshot)) continue;
    const path = prefix + id;
    if (typeof entry.src !== 'string') {
      if (entry.snapshot.status !== 'active') {
        delete children[id];
        continue;
      }
      return `child "${path}" runs inline logic, which cannot be restored in the next round. Register it in setup({ actors: { … } }) and spawn or invoke it by name`;
    }
    const problem =
      findUnserializable(entry.snapshot.context, `child "${path}" context`) ??
      findUnserializable(entry.snapshot.output, `child "${path}" output`) ??
      checkChildren(entry.snapshot, `${path}/`);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * The actor's persisted snapshot, without `output`/`error` (undefined while active), or why it
 * cannot cross a pause.
 */
export function pausedSnapshot(actor: AnyActor): { persisted: Persisted } | { problem: string } {
  // The option keeps xstate's development build from throwing on inline children; they are
  // dropped or refused below, never sealed.
  const persist = actor.getPersistedSnapshot as (options: object) => Persisted;
  const snapshot = persist.call(actor, { __unsafeAllowInlineActors: true });
  const { output: _output, error: _error, ...persisted } = snapshot;
  const problem = findUnserializable(persisted.context) ?? checkChildren(persisted, '');
  return problem ? { problem } : { persisted };
}
