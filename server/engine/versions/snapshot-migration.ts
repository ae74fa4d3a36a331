/**
 * Moves a paused snapshot of an earlier version onto the current machine (tool-versions.ts,
 * `Migration`): its state paths mapped, its context transformed, and the result checked against
 * the current machine before any round runs on it. Every way it can go wrong (a transform that
 * throws or answers no object, a context that cannot cross a round, a state the machine does not
 * have, a final state) is a `problem`, for the caller to fall back on: never an exception.
 */
import type { AnyStateMachine, StateValue } from 'xstate';
import type { Migration } from '../authoring/tool-versions.js';
import { isRecord } from '../plain-objects.js';
import { findUnserializable } from '../round/serializable-context.js';
import { leafPaths, mappedPath, valueOf } from './state-paths.js';

export type Migrated = { snapshot: Record<string, unknown> } | { problem: string };

export function migrateSnapshot(
  persisted: unknown,
  migration: Migration,
  machine: AnyStateMachine,
  meta: { input: Record<string, unknown>; from: string },
): Migrated {
  if (!isRecord(persisted) || persisted.status !== 'active' || persisted.value === undefined) {
    return { problem: 'the snapshot is not a paused machine' };
  }
  let paths: string[];
  try {
    paths = leafPaths(persisted.value as StateValue);
  } catch {
    return { problem: 'the snapshot has no readable state value' };
  }
  const mapping = migration.states ?? {};
  const mapped = valueOf(paths.map((path) => mappedPath(path, mapping)));
  if ('problem' in mapped) return { problem: `the state mapping is contradictory: ${mapped.problem}` };

  let context = isRecord(persisted.context) ? persisted.context : {};
  if (migration.context) {
    try {
      context = migration.context(copyOf(context), { ...meta, states: paths });
    } catch (error) {
      return { problem: `the context transform threw: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!isRecord(context)) return { problem: 'the context transform did not return an object' };
    const unserializable = findUnserializable(context);
    if (unserializable) return { problem: `the migrated ${unserializable}` };
  }

  try {
    // XState resolves the value against the machine's states, and throws on one it does not have.
    const resolved = machine.resolveState({ value: mapped.value, context });
    if (resolved.status === 'done') return { problem: `it lands in a final state (${JSON.stringify(mapped.value)})` };
  } catch {
    return { problem: `it lands in a state the current machine does not have (${JSON.stringify(mapped.value)})` };
  }
  // History recorded by the earlier machine names its state ids; XState drops those the current
  // machine lacks on restore. Children are carried as they are, restored by their source's name.
  return { snapshot: { ...persisted, value: mapped.value, context } };
}

/**
 * A copy for the transform, so one that edits in place and then throws leaves the fallback's
 * context whole. A context holding what structuredClone cannot copy (a URL) is handed as it is.
 */
function copyOf(context: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(context);
  } catch {
    return context;
  }
}
