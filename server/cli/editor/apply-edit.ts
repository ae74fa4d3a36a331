/**
 * One editor edit applied to the text of a tool's source file. The machine's structure (states,
 * transitions, `initial`, `type: 'final'`) changes through the parser's `modify`, which reprints
 * only what it touched (recast), so the rest of the file keeps its formatting and comments. What
 * `modify` does not know, a question's tag and meta and its declaration in `toolSetup({ questions })`,
 * is inserted as text at the places the parser locates. Nothing here touches the disk.
 */
import { EditRefused, type EditorEdit, type StatePath, type Trigger } from './editor-edit.js';
import { asJsonText } from './json-machine-text.js';
import { machineOutline, type MachineOutline } from './machine-outline.js';
import { questionDeclaration, questionStateLines } from './question-source.js';
import { withFileQuotes, withoutNewBlankLines } from './reprint-style.js';
import {
  JSON_PREFIX,
  parseMachines,
  parserText,
  sourceSyntax,
  type ParsedMachine,
  type SourceKind,
} from './statechart-source.js';

const dotted = (path: readonly string[]) => path.join('.');

function stateOf(outline: MachineOutline, path: StatePath, what: string) {
  const state = outline.states.find((s) => s.id === dotted(path));
  if (!state) throw new EditRefused(`${what}: there is no state "${dotted(path) || '(root)'}" in the machine.`);
  return state;
}

function freeName(outline: MachineOutline, parent: StatePath, name: string): void {
  if (outline.states.some((s) => s.id === dotted([...parent, name]))) {
    throw new EditRefused(`There is already a state "${dotted([...parent, name])}".`);
  }
}

/** The parser's path for a new transition of `from`, after the ones it has for the same trigger. */
function newTransitionPath(outline: MachineOutline, from: StatePath, trigger: Trigger): Array<string | number> {
  const state = stateOf(outline, from, 'from');
  let prefix: Array<string | number>;
  switch (trigger.type) {
    case 'event':
      prefix = ['on', trigger.event];
      break;
    case 'answer':
      prefix = ['on', `answer.${trigger.key}.${trigger.outcome}`];
      break;
    case 'done':
      prefix = state.invokes > 0 ? ['invoke', 0, 'onDone'] : ['onDone'];
      break;
    case 'error':
      if (state.invokes === 0) throw new EditRefused(`"${dotted(from)}" invokes nothing, so it has no onError.`);
      prefix = ['invoke', 0, 'onError'];
      break;
    case 'after':
      prefix = ['after', String(trigger.delay)];
      break;
    default:
      prefix = ['always'];
  }
  const key = JSON.stringify(prefix);
  const existing = outline.transitions.filter(
    (t) => dotted(t.from) === dotted(from) && JSON.stringify(t.path.slice(0, -1)) === key,
  ).length;
  return [...prefix, existing];
}

/** The parser's edits for one editor edit (add-question's structure only). */
function structuralEdits(outline: MachineOutline, edit: EditorEdit): unknown[] {
  switch (edit.op) {
    case 'add-state':
      stateOf(outline, edit.parent, 'parent');
      freeName(outline, edit.parent, edit.name);
      return [{ type: 'add_state', path: edit.parent, name: edit.name }];
    case 'rename-state':
      stateOf(outline, edit.path, 'path');
      freeName(outline, edit.path.slice(0, -1), edit.name);
      return [{ type: 'rename_state', path: edit.path, name: edit.name }];
    case 'delete-state':
      stateOf(outline, edit.path, 'path');
      return [{ type: 'remove_state', path: edit.path }];
    case 'set-final':
      stateOf(outline, edit.path, 'path');
      return [{ type: 'set_state_type', path: edit.path, stateType: edit.final ? 'final' : 'normal' }];
    case 'set-initial':
      stateOf(outline, edit.path, 'path');
      return [{ type: 'set_initial_state', path: edit.path.slice(0, -1), initialState: edit.path.at(-1) }];
    case 'add-transition':
      stateOf(outline, edit.to, 'to');
      return [
        {
          type: 'add_transition',
          sourcePath: edit.from,
          targetPath: edit.to,
          transitionPath: newTransitionPath(outline, edit.from, edit.trigger),
          external: false,
        },
      ];
    case 'retarget-transition':
    case 'delete-transition': {
      const known = outline.transitions.some(
        (t) => dotted(t.from) === dotted(edit.from) && JSON.stringify(t.path) === JSON.stringify(edit.transition),
      );
      if (!known) throw new EditRefused(`"${dotted(edit.from)}" has no transition ${JSON.stringify(edit.transition)}.`);
      if (edit.op === 'delete-transition') {
        return [{ type: 'remove_transition', sourcePath: edit.from, transitionPath: edit.transition }];
      }
      stateOf(outline, edit.to, 'to');
      const reanchor = {
        type: 'reanchor_transition',
        sourcePath: edit.from,
        transitionPath: edit.transition,
        newTargetPath: edit.to,
      };
      // The parser marks a re-targeted transition `reenter: true` (XState v4's external default);
      // in v5 that only matters for a target inside the source itself, so elsewhere it is noise.
      const inside = dotted(edit.to).startsWith(dotted(edit.from)) && edit.to.length >= edit.from.length;
      return inside
        ? [reanchor]
        : [
            reanchor,
            {
              type: 'mark_transition_as_external',
              sourcePath: edit.from,
              transitionPath: edit.transition,
              external: false,
            },
          ];
    }
    case 'add-question': {
      stateOf(outline, edit.parent, 'parent');
      freeName(outline, edit.parent, edit.name);
      const path = [...edit.parent, edit.name];
      const asked = outline.states.find((s) => s.question === edit.question.key);
      if (asked) throw new EditRefused(`State "${asked.id}" already asks "${edit.question.key}": pick another key.`);
      const edits: unknown[] = [{ type: 'add_state', path: edit.parent, name: edit.name }];
      for (const outcome of ['accept', 'decline', 'cancel'] as const) {
        const to = edit.targets[outcome];
        if (!to) continue;
        if (dotted(to) !== dotted(path)) stateOf(outline, to, `targets.${outcome}`);
        edits.push({
          type: 'add_transition',
          sourcePath: path,
          targetPath: to,
          transitionPath: ['on', `answer.${edit.question.key}.${outcome}`, 0],
          external: false,
        });
      }
      return edits;
    }
    case 'add-invoke': {
      stateOf(outline, edit.parent, 'parent');
      freeName(outline, edit.parent, edit.name);
      const path = [...edit.parent, edit.name];
      const edits: unknown[] = [
        { type: 'add_state', path: edit.parent, name: edit.name },
        { type: 'add_invoke', path, invokeIndex: 0, source: edit.src },
      ];
      for (const [outcome, property] of [
        ['done', 'onDone'],
        ['error', 'onError'],
      ] as const) {
        const to = edit.targets[outcome];
        if (!to) continue;
        if (dotted(to) !== dotted(path)) stateOf(outline, to, `targets.${outcome}`);
        edits.push({
          type: 'add_transition',
          sourcePath: path,
          targetPath: to,
          transitionPath: ['invoke', 0, property, 0],
          external: false,
        });
      }
      return edits;
    }
  }
}

function lineIndent(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** The machine in `text` whose call starts at `callStart` (the same call, after an edit inside it). */
function sameMachine(text: string, callStart: number): ParsedMachine {
  const machine = parseMachines(text, 'ts').find((m) => m.machineCallResult.node.start === callStart);
  if (!machine)
    throw new EditRefused('After the edit the parser no longer finds the machine; the file is left as it was.');
  return machine;
}

/** `text` with the question's tag and meta written first in the new state's object. */
function withQuestionMeta(text: string, callStart: number, path: StatePath, lines: (indent: string) => string) {
  const node = sameMachine(text, callStart)
    .getAllStateNodes()
    .find((s) => dotted(s.path) === dotted(path))!.ast.node;
  const indent = lineIndent(text, node.start);
  const body = lines(`${indent}  `);
  if (node.properties.length === 0) {
    return `${text.slice(0, node.start)}{\n${body}\n${indent}}${text.slice(node.end)}`;
  }
  return `${text.slice(0, node.start + 1)}\n${body}${text.slice(node.start + 1)}`;
}

function property(objectNode: any, name: string): any {
  return objectNode?.properties?.find((p: any) => (p.key?.name ?? p.key?.value) === name);
}

/**
 * The `questions` object of the `toolSetup({…})` whose `createMachine` builds this machine
 * (`const release = toolSetup({ questions: {…} }); release.createMachine({…})`), if the file has one.
 */
function questionsObject(text: string, callStart: number): any {
  const call = sameMachine(text, callStart).machineCallResult.node;
  const setupName = call.callee?.type === 'MemberExpression' ? call.callee.object?.name : undefined;
  if (!setupName) return undefined;
  let found: any;
  const visit = (node: any) => {
    if (found || !node || typeof node !== 'object') return;
    if (node.type === 'VariableDeclarator' && node.id?.name === setupName && node.init?.type === 'CallExpression') {
      const questions = property(node.init.arguments?.[0], 'questions')?.value;
      if (questions?.type === 'ObjectExpression') found = questions;
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc' || key === 'tokens' || key === 'comments') continue;
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') visit(value);
    }
  };
  visit(sourceSyntax(text).program);
  return found;
}

/** `text` with `declaration` added as the last property of the `questions` object. */
function withDeclaration(text: string, questions: any, declaration: (indent: string) => string): string {
  const close = questions.end - 1;
  const closingIndent = lineIndent(text, close);
  const inner = `${closingIndent}  `;
  if (questions.properties.length === 0) {
    return `${text.slice(0, questions.start)}{\n${declaration(inner)}\n${closingIndent}}${text.slice(questions.end)}`;
  }
  const last = questions.properties.at(-1);
  let head = text.slice(0, last.end);
  let between = text.slice(last.end, close);
  if (!between.trimStart().startsWith(',')) head += ',';
  else {
    head += between.slice(0, between.indexOf(',') + 1);
    between = between.slice(between.indexOf(',') + 1);
  }
  return `${head}\n${declaration(inner)}${between}${text.slice(close)}`;
}

/**
 * The text of a tool's source file after `edit`, given the machine the parser read in it.
 * Throws EditRefused when the edit names what the machine does not have, or cannot be written.
 */
export function applyEdit(text: string, kind: SourceKind, machine: ParsedMachine, edit: EditorEdit): string {
  const outline = machineOutline(machine, '');
  const source = parserText(text, kind);
  const callStart = machine.machineCallResult.node.start;
  let next: string;
  try {
    const { configEdit } = machine.modify(structuralEdits(outline, edit), { v5: true });
    const [start, end] = [configEdit.range[0]!.index, configEdit.range[1]!.index];
    const before = source.slice(start, end);
    let config = withoutNewBlankLines(before, configEdit.newText);
    if (kind === 'ts') config = withFileQuotes(before, config);
    next = source.slice(0, start) + config + source.slice(end);
  } catch (error) {
    if (error instanceof EditRefused) throw error;
    throw new EditRefused(`The parser could not make this edit: ${(error as Error).message}`);
  }
  if (edit.op === 'add-question') {
    const path = [...edit.parent, edit.name];
    const questions = kind === 'ts' ? questionsObject(next, callStart) : undefined;
    const style = kind === 'json' ? 'json' : 'ts';
    next = withQuestionMeta(next, callStart, path, (indent) =>
      questionStateLines(edit.question, style, questions !== undefined, indent),
    );
    if (questions !== undefined) {
      // Parsed again: the meta just written moved everything after it.
      const declared = questionsObject(next, callStart);
      if (property(declared, edit.question.key)) {
        throw new EditRefused(`toolSetup({ questions }) already declares "${edit.question.key}": pick another key.`);
      }
      next = withDeclaration(next, declared, (indent) => questionDeclaration(edit.question, indent));
    }
  }
  if (kind === 'json') {
    const body = next.slice(JSON_PREFIX.length, next.lastIndexOf(');'));
    return asJsonText(body) + next.slice(next.lastIndexOf(');') + 2);
  }
  return next;
}
