/**
 * A tool's machine as it is written in its source file, read with Stately's open parser
 * (`@xstate/machine-extractor`, re-exported by tools/statechart-parser): the reader whose
 * `modify(edits)` rewrites the machine's object literal with recast, so every line the edit does
 * not touch keeps its formatting and comments. A JSON machine file is read as the Stately editor
 * imports it, as the argument of a `createMachine(…)` call.
 *
 * The parser is loaded on the first edit, never at start-up, and only by `baton dev`'s editor. An
 * installed package has it as one bundled file beside this module (`statechart-parser/index.cjs`,
 * made by scripts/build/statechart-parser.ts, its XState v4 inside it); a clone of the repository
 * has it as the local package tools/statechart-parser.
 */
import { createRequire } from 'node:module';
import { ConfigurationError } from '../../engine/index.js';

export type SourceKind = 'ts' | 'json';

/** A state node as the parser sees it: its path and its syntax (`ast.node` is the object literal). */
export interface ParsedStateNode {
  path: string[];
  ast: any;
}

/** A replacement of one span of the text the parser read. */
export interface TextEdit {
  range: Array<{ index: number }>;
  newText: string;
}

/** The parser's result for one machine (the parts the editor uses; its own types lean on XState v4). */
export interface ParsedMachine {
  getAllStateNodes(): ParsedStateNode[];
  getTransitions(): Array<{ config: any; fromPath: string[]; transitionPath: Array<string | number> }>;
  getTransitionTargets(): Array<{
    fromPath: string[];
    transitionPath: Array<string | number>;
    targetPath: Array<string[] | undefined>;
  }>;
  modify(edits: unknown[], options?: { v5?: boolean }): { configEdit: TextEdit };
  machineCallResult: { node: any; callee: any; definition?: { id?: { value: string }; node: any } };
}

interface Parser {
  extractMachinesFromFile(text: string): { machines: ParsedMachine[] } | null;
  getMachineNodesFromFile(text: string): { machineNodes: any[]; file: any };
}

/** Where the parser is looked for, first found wins: the packed bundle, then the clone's package. */
export const PARSER_MODULES = ['./statechart-parser/index.cjs', 'baton-statechart-parser'] as const;

let parser: Parser | undefined;
function loadParser(): Parser {
  if (parser) return parser;
  const require = createRequire(import.meta.url);
  for (const specifier of PARSER_MODULES) {
    try {
      parser = require(specifier) as Parser;
      return parser;
    } catch (error) {
      // Only "not here" moves on: a parser that is here but fails to load is reported as it is.
      const missing = (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND';
      if (!missing || !String((error as Error).message).includes(specifier.replace(/^\.\//, ''))) throw error;
    }
  }
  throw new ConfigurationError(
    "The diagram editor reads machines with Stately's parser (@xstate/machine-extractor), which is missing: an installed baton-mcp ships it in dist/server/cli/editor/statechart-parser/ (reinstall the package), a clone has it in tools/statechart-parser (run npm install).",
  );
}

/** Where a JSON file's text starts inside the `createMachine(…)` call the parser reads. */
export const JSON_PREFIX = 'createMachine(';

/** The text the parser reads for a source: a JSON file becomes a call's argument. */
export function parserText(text: string, kind: SourceKind): string {
  return kind === 'json' ? `${JSON_PREFIX}${text});` : text;
}

/** Every machine the parser finds in a source. */
export function parseMachines(text: string, kind: SourceKind): ParsedMachine[] {
  return loadParser().extractMachinesFromFile(parserText(text, kind))?.machines ?? [];
}

/** The babel syntax of a whole TypeScript source (what the parser itself reads). */
export function sourceSyntax(text: string): any {
  return loadParser().getMachineNodesFromFile(text).file;
}

/** The machine's root id as XState gives it: the `id` written, else XState's default. */
export function rootId(machine: ParsedMachine): string {
  return machine.machineCallResult.definition?.id?.value ?? '(machine)';
}

/** The state paths the parser found, dotted, root first (as `''`). */
export function statePaths(machine: ParsedMachine): string[] {
  return machine.getAllStateNodes().map((node) => node.path.join('.'));
}

/** The parsed machine of `text` whose root id is `id` and whose states are `states` (a set of dotted paths). */
export function findMachine(
  text: string,
  kind: SourceKind,
  id: string,
  states?: ReadonlySet<string>,
): ParsedMachine | undefined {
  const matches = parseMachines(text, kind).filter((machine) => {
    if (rootId(machine) !== id) return false;
    if (!states) return true;
    const found = statePaths(machine);
    return found.length === states.size && found.every((path) => states.has(path));
  });
  return matches.length === 1 ? matches[0] : undefined;
}
