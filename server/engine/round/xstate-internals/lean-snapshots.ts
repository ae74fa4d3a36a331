/**
 * A machine snapshot without children, restored from and persisted to XState's persisted form by
 * the lean actor (see index.ts), byte for byte as XState's own `restoreSnapshot` and
 * `getPersistedSnapshot` do, with the state tree of each state value computed once.
 */
import { StateNode, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { ACTOR_TYPE, isEmpty, type Persisted, type Snapshot } from './actor-contract.js';

/** Distinct state values remembered per machine; a parallel machine may have many. */
const MAX_CACHED_STATES = 512;

/** The state nodes, value and tags of one state value of a machine, as XState's restore computes them. */
interface StateEntry {
  nodes: StateNode[];
  value: unknown;
  tags: string[];
  methods: Pick<AnyMachineSnapshot, 'matches' | 'hasTag' | 'can' | 'getMeta' | 'toJSON'>;
}

const stateEntries = new WeakMap<AnyStateMachine, Map<string, StateEntry>>();

function stateEntryOf(machine: AnyStateMachine, value: unknown, scope: object): StateEntry {
  let entries = stateEntries.get(machine);
  if (!entries) stateEntries.set(machine, (entries = new Map()));
  const key = typeof value === 'string' ? value : JSON.stringify(value);
  let entry = entries.get(key);
  if (!entry) {
    // XState's own restore, of this value alone: it throws as a restore would for a state that does not exist.
    const bare = { status: 'active', value, context: {}, children: {}, historyValue: {} };
    const snapshot = machine.restoreSnapshot(bare as never, scope as never) as Snapshot;
    const { matches, hasTag, can, getMeta, toJSON } = snapshot;
    entry = {
      nodes: snapshot._nodes,
      value: snapshot.value,
      tags: [...snapshot.tags],
      methods: { matches, hasTag, can, getMeta, toJSON },
    };
    if (entries.size < MAX_CACHED_STATES) entries.set(key, entry);
  }
  return entry;
}

/** A fresh copy of a state value (XState computes a new one on every restore). */
function copyValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = copyValue((value as Record<string, unknown>)[key]);
  return copy;
}

/** StateMachine#restoreSnapshot for a snapshot without children, with the state tree from the cache. */
export function restoreWithoutChildren(machine: AnyStateMachine, persisted: Persisted, scope: object): Snapshot {
  if (!isEmpty(persisted.children as object))
    return machine.restoreSnapshot(persisted as never, scope as never) as Snapshot;
  const historyValue = reviveHistoryValue(machine, persisted.historyValue);
  const entry = stateEntryOf(machine, persisted.value, scope);
  const { methods } = entry;
  // One literal with XState's keys in XState's order (createMachineSnapshot), no spread: V8 then
  // gives it the same hidden class as the snapshots XState makes, so XState's functions see one
  // shape of snapshot, not two (with the methods spread in, they did).
  const snapshot = {
    status: persisted.status,
    output: persisted.output,
    error: persisted.error,
    machine,
    context: persisted.context,
    _nodes: entry.nodes,
    value: copyValue(entry.value),
    tags: new Set(entry.tags),
    children: {},
    historyValue,
    matches: methods.matches,
    hasTag: methods.hasTag,
    can: methods.can,
    getMeta: methods.getMeta,
    toJSON: methods.toJSON,
  } as unknown as Snapshot;
  reviveContext(snapshot.context, undefined);
  return snapshot;
}

function reviveHistoryValue(machine: AnyStateMachine, historyValue: unknown): Record<string, StateNode[]> {
  if (!historyValue || typeof historyValue !== 'object') return {};
  const revived: Record<string, StateNode[]> = {};
  for (const key in historyValue) {
    for (const item of (historyValue as Record<string, Array<{ id: string }>>)[key]!) {
      let resolved: StateNode | undefined;
      if (item instanceof StateNode) resolved = item;
      else {
        try {
          resolved = machine.getStateNodeById(item.id);
        } catch {
          // A state that no longer exists is left out, as XState does.
        }
      }
      if (!resolved) continue;
      (revived[key] ??= []).push(resolved);
    }
  }
  return revived;
}

/**
 * References to children in a persisted context come back as the children (none here: undefined).
 * The objects already visited (superjson may restore shared and cyclic references) are kept from
 * the first nested object on: most contexts hold none.
 */
function reviveContext(part: unknown, seen: Set<unknown> | undefined): void {
  for (const key in part as object) {
    const value = (part as Record<string, unknown>)[key];
    if (value && typeof value === 'object') {
      if ('xstate$$type' in value && value.xstate$$type === ACTOR_TYPE) {
        (part as Record<string, unknown>)[key] = undefined;
        continue;
      }
      seen ??= new Set([part]);
      if (seen.has(value)) continue;
      seen.add(value);
      reviveContext(value, seen);
    }
  }
}

/** machine.getPersistedSnapshot, same keys in the same order, for a machine snapshot without children. */
export function persist(machine: AnyStateMachine, snapshot: Snapshot, options: unknown): Persisted {
  if (!snapshot._nodes || !isEmpty(snapshot.children))
    return machine.getPersistedSnapshot(snapshot, options) as Persisted;
  return {
    status: snapshot.status,
    output: snapshot.output,
    error: snapshot.error,
    value: snapshot.value,
    historyValue: serializeHistoryValue(snapshot.historyValue),
    context: persistContext(snapshot.context),
    children: {},
  };
}

function serializeHistoryValue(historyValue: unknown): Record<string, Array<{ id: string }>> {
  if (typeof historyValue !== 'object' || historyValue === null) return {};
  const result: Record<string, Array<{ id: string }>> = {};
  for (const key in historyValue) {
    const value = (historyValue as Record<string, unknown>)[key];
    if (Array.isArray(value)) result[key] = value.map((item: { id: string }) => ({ id: item.id }));
  }
  return result;
}

/** An actor reference in context becomes `{ xstate$$type, id }`; the context is copied only where one is. */
function persistContext(part: any): any {
  let copy: any;
  for (const key in part) {
    const value = part[key];
    if (value && typeof value === 'object') {
      if ('sessionId' in value && 'send' in value && 'ref' in value) {
        copy ??= Array.isArray(part) ? part.slice() : { ...part };
        copy[key] = { xstate$$type: ACTOR_TYPE, id: value.id };
      } else {
        const result = persistContext(value);
        if (result !== value) {
          copy ??= Array.isArray(part) ? part.slice() : { ...part };
          copy[key] = result;
        }
      }
    }
  }
  return copy ?? part;
}
