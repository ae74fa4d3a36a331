/**
 * What XState's editor tooling reads of a machine's source, set beside the machine Baton runs.
 * The reader is `@xstate/machine-extractor` (Stately's open parser, the one its VS Code extension
 * and editor import used; tools/statechart-parser), which reads a `createMachine({...})` call's
 * object literal and loses anything it cannot see as one: a builder call, a spread, a variable.
 *
 * A machine is read whole when the parser recovers every state node, every transition (its
 * source, event, targets and guard name), every invoked actor, every question (a state tagged
 * `baton.input` whose meta names the key the engine asks) and an `initial` that names a state it
 * found. `readingGaps` lists what it missed, as short sentences; none means read whole.
 */
import { createRequire } from 'node:module';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { eachStateNode, INPUT_META, INPUT_TAG } from '../../server/engine/index.js';

interface ParsedStateNode {
  path: string[];
  ast: any;
}
/** The parser's result for one machine (the parts used here; its own types lean on XState v4). */
export interface ParsedMachine {
  getAllStateNodes(): ParsedStateNode[];
  getTransitions(): Array<{ config: any; fromPath: string[]; transitionPath: any[] }>;
  getTransitionTargets(): Array<{ fromPath: string[]; transitionPath: any[]; targetPath: Array<string[] | undefined> }>;
  toConfig(): any;
  modify(edits: unknown[], options?: { v5?: boolean }): { newText: string } & Record<string, unknown>;
  machineCallResult: { definition?: { id?: { value: string } } };
}

const parser = createRequire(import.meta.url)('baton-statechart-parser') as {
  extractMachinesFromFile(text: string): { machines: ParsedMachine[] } | null;
  getMachineNodesFromFile(text: string): { machineNodes: Array<{ arguments: any[] }> };
};

/** Every machine the parser finds in a source file; a JSON machine file is read as the editor imports it. */
export function parseMachines(text: string, kind: 'ts' | 'json' = 'ts'): ParsedMachine[] {
  const source = kind === 'json' ? `createMachine(${text});` : text;
  return parser.extractMachinesFromFile(source)?.machines ?? [];
}

/** The parsed machine whose root id is `id`, or the only one when the file has one. */
export function parsedMachine(text: string, id: string, kind: 'ts' | 'json' = 'ts'): ParsedMachine | undefined {
  const machines = parseMachines(text, kind);
  return (
    machines.find((m) => m.machineCallResult.definition?.id?.value === id) ??
    (machines.length === 1 ? machines[0] : undefined)
  );
}

const dotted = (path: readonly string[]) => path.join('.') || '(root)';

/** How the transition is reached, in the parser's terms: `on:<event>`, `after`, `invoke.onDone`, … */
function kindOfEvent(node: AnyStateNode, eventType: string): string {
  if (eventType.startsWith('xstate.after.')) return 'after';
  if (eventType === `xstate.done.state.${node.id}`) return 'onDone';
  if (eventType.startsWith('xstate.done.actor.')) return 'invoke.onDone';
  if (eventType.startsWith('xstate.error.actor.')) return 'invoke.onError';
  return `on:${eventType}`;
}
function kindOfPath(transitionPath: any[]): string {
  const [type] = transitionPath;
  if (type === 'on') return `on:${transitionPath[1]}`;
  if (type === 'invoke') return `invoke.${transitionPath[2]}`;
  return String(type);
}
function guardName(guard: unknown): string {
  if (guard === undefined) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return '(inline)';
  return String((guard as { type?: unknown }).type ?? '(inline)');
}

/** Each transition of the running machine, as `state | kind | targets | guard`. */
export function machineTransitions(machine: AnyStateMachine): string[] {
  const rows: string[] = [];
  eachStateNode(machine.root, (node) => {
    const from = dotted(node.path);
    const add = (kind: string, def: any) => {
      const targets = (def.target ?? []).map((t: AnyStateNode) => dotted(t.path)).sort();
      rows.push(`${from} | ${kind} | ${targets.join(',')} | ${guardName(def.guard)}`);
    };
    for (const [eventType, defs] of node.transitions) for (const def of defs) add(kindOfEvent(node, eventType), def);
    for (const def of node.always ?? []) add('always', def);
  });
  return rows.sort();
}

/** Each transition the parser recovered, in the same form. */
export function parsedTransitions(parsed: ParsedMachine): string[] {
  const targets = new Map<string, string[]>();
  for (const t of parsed.getTransitionTargets()) {
    const resolved = t.targetPath.map((path) => (path ? dotted(path) : '(unresolved)'));
    targets.set(`${dotted(t.fromPath)}|${t.transitionPath.join('|')}`, resolved.sort());
  }
  return parsed
    .getTransitions()
    .map((t) => {
      const from = dotted(t.fromPath);
      const to = targets.get(`${from}|${t.transitionPath.join('|')}`) ?? [];
      const cond = t.config?.guard ?? t.config?.cond;
      const guard = cond ? (cond.declarationType === 'named' ? cond.name : '(inline)') : '';
      return `${from} | ${kindOfPath(t.transitionPath)} | ${to.join(',')} | ${guard}`;
    })
    .sort();
}

/** A string property's value in a parsed object literal (`{ key: 'confirm' }`), if it is a literal. */
function literalProperty(objectNode: any, name: string): any {
  for (const property of objectNode?.properties ?? []) {
    const key = property.key?.name ?? property.key?.value;
    if (key === name) return property.value;
  }
  return undefined;
}

/** The question key a parsed state's meta names (`meta: { 'baton.input': { key } }`), if any. */
export function parsedQuestionKey(state: ParsedStateNode): string | undefined {
  const question = literalProperty(state.ast.meta?.node, INPUT_META);
  const key = literalProperty(question, 'key');
  return key?.type === 'StringLiteral' ? key.value : undefined;
}

function questionKeyOf(node: AnyStateNode): string | undefined {
  if (!node.tags.includes(INPUT_TAG)) return undefined;
  return (node.meta as Record<string, { key?: string }> | undefined)?.[INPUT_META]?.key;
}

export interface Reading {
  states: number;
  recovered: number;
  questions: number;
  questionsRecovered: number;
  gaps: string[];
}

/** What the parser recovered of `machine` from its source, and every gap. */
export function readMachine(machine: AnyStateMachine, parsed: ParsedMachine | undefined): Reading {
  const real: AnyStateNode[] = [];
  eachStateNode(machine.root, (node) => real.push(node));
  const questions = real.filter((node) => questionKeyOf(node) !== undefined);
  if (!parsed) {
    return {
      states: real.length,
      recovered: 0,
      questions: questions.length,
      questionsRecovered: 0,
      gaps: ['no createMachine call with this machine was found'],
    };
  }
  const found = new Map(parsed.getAllStateNodes().map((s) => [dotted(s.path), s]));
  const gaps: string[] = [];
  for (const node of real) {
    if (!found.has(dotted(node.path))) gaps.push(`state ${dotted(node.path)} is not recovered`);
  }
  let questionsRecovered = 0;
  for (const node of questions) {
    const state = found.get(dotted(node.path));
    if (!state) continue;
    const key = parsedQuestionKey(state);
    const tags = [state.ast.tags ?? []].flat().map((tag: { value: string }) => tag.value);
    if (!tags.includes(INPUT_TAG)) gaps.push(`question state ${dotted(node.path)} has no ${INPUT_TAG} tag it can read`);
    else if (key !== questionKeyOf(node))
      gaps.push(`question state ${dotted(node.path)} names no question it can read`);
    else questionsRecovered++;
  }
  const want = machineTransitions(machine);
  const got = parsedTransitions(parsed);
  for (const row of difference(want, got)) gaps.push(`transition not recovered: ${row}`);
  for (const row of difference(got, want)) gaps.push(`transition read but not in the machine: ${row}`);
  for (const node of real) {
    const state = found.get(dotted(node.path));
    if (!state) continue;
    const srcs = (state.ast.invoke ?? []).map((invoke: any) => invoke.src?.value);
    const wanted = node.invoke.map((invoke) => (typeof invoke.src === 'string' ? invoke.src : '(inline)'));
    if (srcs.length !== wanted.length || wanted.some((src, i) => src !== '(inline)' && src !== srcs[i])) {
      gaps.push(`invokes of ${dotted(node.path)}: read ${JSON.stringify(srcs)}, machine has ${JSON.stringify(wanted)}`);
    }
    const initial = state.ast.initial?.value as string | undefined;
    if (node.type === 'compound' && (initial === undefined || !found.has(dotted([...node.path, initial])))) {
      gaps.push(`initial of ${dotted(node.path)} names no state it found (${initial ?? 'none read'})`);
    }
  }
  return {
    states: real.length,
    recovered: real.filter((node) => found.has(dotted(node.path))).length,
    questions: questions.length,
    questionsRecovered,
    gaps,
  };
}

/** Rows of `a` not matched one for one in `b` (a multiset difference). */
function difference(a: string[], b: string[]): string[] {
  const left = [...b];
  return a.filter((row) => {
    const i = left.indexOf(row);
    if (i === -1) return true;
    left.splice(i, 1);
    return false;
  });
}

/**
 * The state paths written in each `createMachine({...})` call of a source, read from the syntax
 * alone: every key of every `states` object, whatever its value (an object literal, a builder
 * call). What a reader of the source sees as states, to set beside what the parser recovered.
 */
export function writtenStates(text: string): string[][] {
  const { machineNodes } = parser.getMachineNodesFromFile(text);
  return machineNodes.map((call) => {
    const paths: string[] = [''];
    const visit = (node: any, path: string[]) => {
      const states = literalProperty(node, 'states');
      for (const property of states?.type === 'ObjectExpression' ? states.properties : []) {
        const name = property.key?.name ?? property.key?.value;
        if (typeof name !== 'string') continue;
        paths.push(dotted([...path, name]));
        if (property.value?.type === 'ObjectExpression') visit(property.value, [...path, name]);
      }
    };
    if (call.arguments[0]?.type === 'ObjectExpression') visit(call.arguments[0], []);
    return paths.map((p) => p || '(root)');
  });
}

/** Every state the parser recovered from each machine of a source, and every `initial` it could not place. */
export function recoveredStates(text: string): Array<{ states: string[]; badInitials: string[] }> {
  return parseMachines(text).map((machine) => {
    const nodes = machine.getAllStateNodes();
    const found = new Set(nodes.map((n) => dotted(n.path)));
    const badInitials = nodes
      .filter((n) => n.ast.initial && !found.has(dotted([...n.path, n.ast.initial.value])))
      .map((n) => `${dotted(n.path)} -> ${n.ast.initial.value}`);
    return { states: [...found], badInitials };
  });
}
