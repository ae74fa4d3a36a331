/**
 * A hash over exactly what a persisted snapshot depends on: state ids and types, initial states,
 * history, transition events and targets, eventless transitions and invoked actor sources. Meta,
 * descriptions and action bodies are left out, so rewording a question does not invalidate the
 * flows in flight, while renaming or re-wiring a state does (docs/architecture.md, "Deploys").
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { canonicalJson, shortDigest } from './canonical-digest.js';

function targets(transition: { target?: ReadonlyArray<AnyStateNode> | undefined; guard?: unknown }) {
  const guard = transition.guard as { type?: string } | string | undefined;
  return {
    to: (transition.target ?? []).map((node) => node.id),
    guard: typeof guard === 'string' ? guard : (guard?.type ?? null),
  };
}

function describe(node: AnyStateNode): unknown {
  const on: Record<string, unknown> = {};
  for (const [event, list] of node.transitions) on[event] = list.map(targets);
  return {
    id: node.id,
    type: node.type,
    history: node.history,
    initial: node.initial ? node.initial.target.map((n: AnyStateNode) => n.id) : null,
    on,
    always: (node.always ?? []).map(targets),
    invoke: node.invoke.map((inv) => ({ id: inv.id, src: typeof inv.src === 'string' ? inv.src : inv.id })),
    states: Object.values(node.states).map(describe),
  };
}

export function structuralVersion(machine: AnyStateMachine): string {
  return shortDigest(canonicalJson({ version: machine.version ?? null, root: describe(machine.root) })).slice(0, 12);
}
