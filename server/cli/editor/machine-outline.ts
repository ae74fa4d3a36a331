/**
 * What the editor panel lists of a machine: its states and transitions as the parser read them
 * from the source, in the parser's own terms (a state's path, a transition's path inside its
 * state: `['on', 'answer.confirm.accept', 0]`, `['invoke', 0, 'onDone', 0]`, `['after', '5000', 0]`),
 * which are exactly what an edit names to change them.
 */
import { INPUT_META, INPUT_TAG } from '../../engine/index.js';
import type { ParsedMachine, ParsedStateNode } from './statechart-source.js';

export interface OutlineState {
  /** Dotted path; `''` is the root. */
  id: string;
  path: string[];
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** The child state `initial` names, for a compound state. */
  initial?: string;
  /** The question this state asks (`meta['baton.input'].key`), if it is a question state. */
  question?: string;
  /** How many actors it invokes (an `onDone`/`onError` transition needs one). */
  invokes: number;
}

export interface OutlineTransition {
  from: string[];
  path: Array<string | number>;
  /** Readable: `answer.confirm.accept`, `invoke onDone`, `after 5000`, `always`. */
  trigger: string;
  targets: string[];
  guard?: string;
}

export interface MachineOutline {
  id: string;
  states: OutlineState[];
  transitions: OutlineTransition[];
}

function property(objectNode: any, name: string): any {
  for (const p of objectNode?.properties ?? []) {
    const key = p.key?.name ?? p.key?.value;
    if (key === name) return p.value;
  }
  return undefined;
}

/** The question key a parsed state's meta names, if it is tagged as a question. */
export function questionKeyOf(state: ParsedStateNode): string | undefined {
  const tags = [state.ast.tags ?? []].flat().map((tag: { value?: string }) => tag.value);
  if (!tags.includes(INPUT_TAG)) return undefined;
  const key = property(property(state.ast.meta?.node, INPUT_META), 'key');
  return key?.type === 'StringLiteral' ? key.value : undefined;
}

function triggerOf(path: Array<string | number>): string {
  const [type, second, third] = path;
  if (type === 'on') return String(second);
  if (type === 'invoke') return `invoke ${String(third)}`;
  if (type === 'after') return `after ${String(second)}`;
  return String(type);
}

export function machineOutline(machine: ParsedMachine, id: string): MachineOutline {
  const states: OutlineState[] = machine.getAllStateNodes().map((node) => {
    const ast = node.ast;
    const written = ast.type?.value as string | undefined;
    const hasChildren = (ast.states?.properties?.length ?? 0) > 0;
    const type =
      written === 'final' || written === 'parallel' || written === 'history'
        ? written
        : hasChildren
          ? 'compound'
          : 'atomic';
    const question = questionKeyOf(node);
    const initial = ast.initial?.value as string | undefined;
    return {
      id: node.path.join('.'),
      path: node.path,
      type,
      ...(initial === undefined ? {} : { initial }),
      ...(question === undefined ? {} : { question }),
      invokes: [ast.invoke ?? []].flat().length,
    };
  });
  const targets = new Map<string, string[]>();
  for (const t of machine.getTransitionTargets()) {
    targets.set(
      JSON.stringify([t.fromPath, t.transitionPath]),
      t.targetPath.map((path) => (path ? path.join('.') : '(unresolved)')),
    );
  }
  const transitions = machine.getTransitions().map((t) => {
    const cond = t.config?.guard ?? t.config?.cond;
    const guard = cond ? (cond.declarationType === 'named' ? String(cond.name) : '(inline)') : undefined;
    return {
      from: t.fromPath,
      path: t.transitionPath,
      trigger: triggerOf(t.transitionPath),
      targets: targets.get(JSON.stringify([t.fromPath, t.transitionPath])) ?? [],
      ...(guard ? { guard } : {}),
    };
  });
  return { id, states, transitions };
}
