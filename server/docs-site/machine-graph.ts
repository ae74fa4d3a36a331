/**
 * A machine's states and transitions as plain data, read from the live `machine.root` tree (the
 * JSON definition drops inline guards and invoke ids). Both the Mermaid state diagram and the doc
 * pages read this model; it knows XState and Baton's input states, and nothing of Mermaid.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { eachStateNode, INPUT_META, INPUT_TAG, SINGLE_USE_TAG, type Question } from '../engine/index.js';
import { summarizeQuestion, type QuestionSummary } from './question-summary.js';

export type GraphNodeType = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

export interface GraphNode {
  /** The XState state node id (`release.pickWindow`). */
  stateId: string;
  key: string;
  type: GraphNodeType;
  history?: 'shallow' | 'deep';
  /** Undefined for the machine's root. */
  parent?: GraphNode;
  children: GraphNode[];
  /** Set when the state is one of Baton's input states. */
  question?: QuestionSummary;
  /** The state is accepted once only (`singleUse` on its ask… helper): its answer commits an effect. */
  singleUse: boolean;
  /** Invoked actors, by name (`deploy`), or `inline actor` when the logic was given inline. */
  invokes: string[];
  description?: string;
  /** State ids the node starts in (compound states). */
  initial: string[];
}

export type GraphEdgeKind = 'event' | 'answer' | 'always' | 'after' | 'done' | 'error' | 'snapshot' | 'history';

export interface GraphEdge {
  /** The state whose transition this is (the root for machine-level `on`). */
  source: GraphNode;
  /** Empty when the transition has no target (actions only: the machine stays). */
  targets: GraphNode[];
  kind: GraphEdgeKind;
  /** What triggers it: `accept`, `after 50 ms`, `done: deploy`, `always`, an event type. */
  trigger: string;
  /** The guard by name (`confirmed`, `!isBusy`, `a && b`), `else` for the fallback of a guarded list. */
  guard?: string;
  /** For answer edges: which question and which outcome. */
  answer?: { key: string; outcome: string };
}

export interface MachineGraph {
  id: string;
  root: GraphNode;
  /** Every node in document order, root first. */
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** `collect.size.asking`: a node's keys from the root (custom ids say nothing of nesting). */
export function keyPath(node: GraphNode): string {
  const keys: string[] = [];
  for (let n: GraphNode | undefined = node; n?.parent; n = n.parent) keys.unshift(n.key);
  return keys.join('.');
}

const ANSWER_EVENT = /^answer\.([A-Za-z0-9_-]+)\.(accept|decline|cancel|result|unsupported)$/;
const INLINE_GUARD = 'inline guard';

/** A guard as a short expression: named guards by name, `not`/`and`/`or` spelled out. */
export function guardLabel(guard: unknown): string | undefined {
  if (guard === undefined || guard === null) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && typeof (guard as { type?: unknown }).type === 'string') {
    return (guard as { type: string }).type;
  }
  if (typeof guard !== 'function') return INLINE_GUARD;
  // xstate's guard helpers are functions carrying their operands (`guards`, `stateValue`).
  const helper = guard as { name?: string; check?: unknown; guards?: unknown[]; stateValue?: unknown };
  if (typeof helper.check === 'function' && Array.isArray(helper.guards)) {
    const parts = helper.guards.map((g) => {
      const label = guardLabel(g) ?? INLINE_GUARD;
      return /\s/.test(label) && label !== INLINE_GUARD ? `(${label})` : label;
    });
    if (helper.name === 'not') return `!${parts[0]}`;
    if (helper.name === 'and') return parts.join(' && ');
    if (helper.name === 'or') return parts.join(' || ');
  }
  if (typeof helper.check === 'function' && 'stateValue' in helper) {
    return `in ${typeof helper.stateValue === 'string' ? helper.stateValue : JSON.stringify(helper.stateValue)}`;
  }
  // An inline arrow written as `guard: () => …` is named "guard" by the language: no information.
  return helper.name && helper.name !== 'guard' ? helper.name : INLINE_GUARD;
}

function invokeName(node: AnyStateNode, index: number): string {
  const invoke = node.invoke[index]!;
  if (typeof invoke.src === 'string' && !invoke.src.startsWith('xstate.invoke.')) return invoke.src;
  // Inline logic: its id is only worth showing when the author chose it.
  return invoke.id !== `${index}.${node.id}` ? invoke.id : 'inline actor';
}

function questionOf(node: AnyStateNode): Question | undefined {
  if (!node.tags.includes(INPUT_TAG)) return undefined;
  return (node.meta as Record<string, unknown> | undefined)?.[INPUT_META] as Question | undefined;
}

interface Trigger {
  kind: GraphEdgeKind;
  trigger: string;
  answer?: { key: string; outcome: string };
}

function triggerOf(node: AnyStateNode, graphNode: GraphNode, eventType: string, delay: unknown): Trigger {
  const answer = ANSWER_EVENT.exec(eventType);
  if (answer) {
    const [, key, outcome] = answer as unknown as [string, string, string];
    const own = graphNode.question?.key === key;
    return { kind: 'answer', trigger: own ? outcome : `${key} ${outcome}`, answer: { key, outcome } };
  }
  if (eventType.startsWith('xstate.after.')) {
    return { kind: 'after', trigger: typeof delay === 'number' ? `after ${delay} ms` : `after ${String(delay)}` };
  }
  for (const [prefix, kind, word] of [
    ['xstate.done.actor.', 'done', 'done'],
    ['xstate.error.actor.', 'error', 'error'],
    ['xstate.snapshot.', 'snapshot', 'snapshot'],
  ] as const) {
    if (!eventType.startsWith(prefix)) continue;
    const invokeId = eventType.slice(prefix.length);
    const index = node.invoke.findIndex((inv) => inv.id === invokeId);
    return { kind, trigger: `${word}: ${index >= 0 ? invokeName(node, index) : invokeId}` };
  }
  if (eventType === `xstate.done.state.${node.id}`) return { kind: 'done', trigger: 'done' };
  if (eventType === 'xstate.route') return { kind: 'event', trigger: 'route' };
  return { kind: 'event', trigger: eventType };
}

interface TransitionLike {
  target?: ReadonlyArray<AnyStateNode> | undefined;
  guard?: unknown;
  delay?: unknown;
}

export function machineGraph(machine: AnyStateMachine): MachineGraph {
  const nodes: GraphNode[] = [];
  const byId = new Map<string, GraphNode>();

  const build = (node: AnyStateNode, parent: GraphNode | undefined): GraphNode => {
    const question = questionOf(node);
    const graphNode: GraphNode = {
      stateId: node.id,
      key: node.key,
      type: node.type,
      ...(node.type === 'history' ? { history: node.history === 'deep' ? 'deep' : 'shallow' } : {}),
      ...(parent ? { parent } : {}),
      children: [],
      ...(question ? { question: summarizeQuestion(question) } : {}),
      singleUse: node.tags.includes(SINGLE_USE_TAG),
      invokes: node.invoke.map((_, i) => invokeName(node, i)),
      ...(node.description ? { description: node.description } : {}),
      initial: node.type === 'compound' ? (node.initial?.target ?? []).map((n: AnyStateNode) => n.id) : [],
    };
    nodes.push(graphNode);
    byId.set(node.id, graphNode);
    graphNode.children = Object.values(node.states).map((child) => build(child as AnyStateNode, graphNode));
    return graphNode;
  };
  const root = build(machine.root, undefined);

  const edges: GraphEdge[] = [];
  const resolve = (targets: ReadonlyArray<AnyStateNode> | undefined) =>
    (targets ?? []).map((t) => byId.get(t.id)).filter((t): t is GraphNode => t !== undefined);
  const add = (node: AnyStateNode, list: TransitionLike[], eventType: string | undefined) => {
    const source = byId.get(node.id)!;
    let guarded = false;
    for (const transition of list) {
      const trigger =
        eventType === undefined
          ? { kind: 'always' as const, trigger: 'always' }
          : triggerOf(node, source, eventType, transition.delay);
      const guard = guardLabel(transition.guard) ?? (guarded ? 'else' : undefined);
      guarded ||= transition.guard !== undefined;
      edges.push({ source, targets: resolve(transition.target), ...trigger, ...(guard ? { guard } : {}) });
    }
  };
  const visit = (node: AnyStateNode) => {
    for (const [eventType, list] of node.transitions) add(node, list as TransitionLike[], eventType);
    if (node.always) add(node, node.always as TransitionLike[], undefined);
    if (node.type === 'history') {
      const source = byId.get(node.id)!;
      const targets = historyDefault(node)
        .map((id) => byId.get(id))
        .filter((t): t is GraphNode => !!t);
      if (targets.length > 0) edges.push({ source, targets, kind: 'history', trigger: 'default' });
    }
  };
  eachStateNode(machine.root, visit);
  return { id: machine.id, root, nodes, edges };
}

/** Where a history state goes when there is no history yet (XState: its `target`, else the parent's initial). */
function historyDefault(node: AnyStateNode): string[] {
  const parent = node.parent!;
  const configured = (node.config as { target?: string | string[] }).target;
  if (configured === undefined)
    return parent.type === 'compound' ? parent.initial.target.map((n: AnyStateNode) => n.id) : [];
  return (Array.isArray(configured) ? configured : [configured]).flatMap((target) => {
    if (target.startsWith('#')) return [target.slice(1)];
    let current: AnyStateNode | undefined = parent;
    for (const key of target.split('.')) current = current?.states[key] as AnyStateNode | undefined;
    return current ? [current.id] : [];
  });
}
