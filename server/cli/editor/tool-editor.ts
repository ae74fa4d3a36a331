/**
 * The diagram editor's one writer: reads a tool's machine from its own source file, applies an
 * edit, checks the result as `baton dev` would load it, and only then writes it, atomically, over
 * the file. What it guarantees:
 *
 * - The file is found from the tool's name, never from anything a page sends: among the files the
 *   tools module imports, inside the project, the one whose machine has the served machine's id
 *   and exactly its states.
 * - A page edits the text it saw: the edit names the file's content hash, and a file changed on
 *   disk since is refused as stale (the page reloads it instead of overwriting).
 * - A candidate that does not load or fails the start-up checks (the tool registry's, and the
 *   docs' check that an example runs no effect for real: the editor lives on the docs page) is
 *   refused with the check's own message, and the file is left byte for byte as it was.
 * - The previous text of the last edits is kept in memory, so they can be undone (again only
 *   while the file is as the edit left it).
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import type { AnyStateMachine } from 'xstate';
import {
  checkToolEffects,
  ConfigurationError,
  eachStateNode,
  silentLogger,
  ToolRegistry,
  type LiveToolRegistry,
  type ToolDefinition,
} from '../../engine/index.js';
import type { ExampleToolOptions } from '../../../machines/index.js';
import { applyEdit } from './apply-edit.js';
import { EditRefused, type EditorEdit } from './editor-edit.js';
import { loadTools } from './edit-check.js';
import { typeErrors } from './type-check.js';
import { machineOutline, type MachineOutline } from './machine-outline.js';
import { findMachine, type SourceKind } from './statechart-source.js';

/** The mark of the editor's candidate files: `baton dev`'s watcher ignores them. */
export const CANDIDATE_MARK = '.baton-edit-';

export interface ToolEditorOptions {
  /** The project's folder: nothing outside it is ever written. */
  root: string;
  /** The tools module `baton dev` serves. */
  modulePath: string;
  examples: ExampleToolOptions;
  /** The served list: what a tool's machine is now, and whose change says the dev loop reloaded. */
  registry: LiveToolRegistry;
  /** How many edits can be undone (10). */
  undoDepth?: number;
  /** How long an edit waits for the dev loop to serve it before answering anyway (5 s). */
  reloadWaitMs?: number;
}

export interface EditorState {
  tool: string;
  /** The source file, relative to the project (said to the author; never read back from a page). */
  file: string;
  kind: SourceKind;
  /** sha256 of the file's bytes: what an edit must name. */
  hash: string;
  outline: MachineOutline;
  /** The actors the served machine's setup implements, by name: what an invoked step can name. */
  actors: string[];
  /** How many edits of this file can be undone. */
  undo: number;
}

interface Source {
  file: string;
  kind: SourceKind;
}

interface Done {
  file: string;
  before: string;
  afterHash: string;
}

export const contentHash = (text: string) => createHash('sha256').update(text).digest('hex');

function servedStates(tool: ToolDefinition): Set<string> {
  const paths = new Set<string>();
  eachStateNode(tool.machine.root, (node) => paths.add(node.path.join('.')));
  return paths;
}

export class ToolEditor {
  readonly #options: ToolEditorOptions;
  /** Files the tools module imported at the last look; cleared when the served list changes. */
  #imported: Promise<string[]> | undefined;
  readonly #done: Done[] = [];
  /** One edit at a time: each reads the file the previous one wrote. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: ToolEditorOptions) {
    this.#options = options;
    options.registry.onChange(() => (this.#imported = undefined));
  }

  #serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #tool(name: string): ToolDefinition {
    const tool = this.#options.registry.get(name);
    if (!tool) throw new EditRefused(`No tool "${name}" is served.`, 'unknown-tool');
    return tool;
  }

  /** The tool's source file and the machine in it, as the parser reads the file now. */
  async #source(tool: ToolDefinition): Promise<Source> {
    this.#imported ??= loadTools(this.#options.modulePath, this.#options.examples).then((loaded) => loaded.files);
    const files = await this.#imported.catch((error: unknown) => {
      this.#imported = undefined;
      throw error;
    });
    const states = servedStates(tool);
    const inside = files.filter((file) => {
      const path = relative(this.#options.root, file);
      return (
        !path.startsWith('..') && !path.split(sep).includes('node_modules') && /\.(ts|mts|js|mjs|json)$/.test(file)
      );
    });
    const found: Source[] = [];
    for (const file of inside) {
      const kind: SourceKind = file.endsWith('.json') ? 'json' : 'ts';
      const text = readFileSync(file, 'utf8');
      if (!text.includes(tool.machine.id)) continue;
      if (findMachine(text, kind, tool.machine.id, states)) found.push({ file, kind });
    }
    if (found.length === 1) return found[0]!;
    throw new EditRefused(
      found.length === 0
        ? `The source of "${tool.name}" was not found: no file the tools module imports has a machine with id "${tool.machine.id}" and these states written as an object literal the parser reads.`
        : `The machine of "${tool.name}" is written in several files (${found.map((s) => relative(this.#options.root, s.file)).join(', ')}): the editor cannot tell which to change.`,
      'unknown-tool',
    );
  }

  #state(tool: ToolDefinition, source: Source, text: string): EditorState {
    const machine = findMachine(text, source.kind, tool.machine.id)!;
    return {
      tool: tool.name,
      file: relative(this.#options.root, source.file),
      kind: source.kind,
      hash: contentHash(text),
      outline: machineOutline(machine, tool.machine.id),
      actors: Object.keys((tool.machine as AnyStateMachine).implementations.actors ?? {}).sort(),
      undo: this.#done.filter((done) => done.file === source.file).length,
    };
  }

  /** The tool's source as the page shows it. */
  state(name: string): Promise<EditorState> {
    return this.#serialized(async () => {
      const tool = this.#tool(name);
      const source = await this.#source(tool);
      return this.#state(tool, source, readFileSync(source.file, 'utf8'));
    });
  }

  /** Applies `edit` to the tool's source if it is still the text whose hash is `hash`. */
  edit(name: string, hash: string, edit: EditorEdit): Promise<EditorState> {
    return this.#serialized(async () => {
      const tool = this.#tool(name);
      const source = await this.#source(tool);
      const text = this.#current(source.file, hash);
      const machine = findMachine(text, source.kind, tool.machine.id)!;
      const next = applyEdit(text, source.kind, machine, edit);
      await this.#write(tool, source, text, next);
      this.#done.push({ file: source.file, before: text, afterHash: contentHash(next) });
      if (this.#done.length > (this.#options.undoDepth ?? 10)) this.#done.shift();
      return this.#stateAfter(tool, source, next);
    });
  }

  /** Puts back the text before the tool's last edit, if the file is still as that edit left it. */
  undo(name: string, hash: string): Promise<EditorState> {
    return this.#serialized(async () => {
      const tool = this.#tool(name);
      const source = await this.#source(tool);
      const text = this.#current(source.file, hash);
      const at = this.#done.map((done) => done.file).lastIndexOf(source.file);
      if (at === -1) throw new EditRefused('There is no edit of this file to undo.');
      const done = this.#done[at]!;
      if (done.afterHash !== hash) {
        throw new EditRefused('The file changed since the last edit; undo would overwrite that change.', 'stale');
      }
      await this.#write(tool, source, text, done.before, false);
      this.#done.splice(at, 1);
      return this.#stateAfter(tool, source, done.before);
    });
  }

  #current(file: string, hash: string): string {
    const text = readFileSync(file, 'utf8');
    if (contentHash(text) !== hash) {
      throw new EditRefused('The file changed on disk since the page loaded it: reload to see it.', 'stale');
    }
    return text;
  }

  /**
   * Writes `next` over the file once it loads and passes the start-up checks (`check`), through a
   * candidate beside it that is renamed over it, so the file is never half-written.
   */
  async #write(tool: ToolDefinition, source: Source, text: string, next: string, check = true): Promise<void> {
    const ext = extname(source.file);
    const candidate = join(
      dirname(source.file),
      `.${basename(source.file, ext)}${CANDIDATE_MARK}${randomUUID().slice(0, 8)}${ext}`,
    );
    writeFileSync(candidate, next);
    try {
      if (check) await this.#check(tool, source.file, candidate);
      if (contentHash(readFileSync(source.file, 'utf8')) !== contentHash(text)) {
        throw new EditRefused('The file changed on disk while the edit was checked: reload to see it.', 'stale');
      }
      const reloaded = this.#reloaded();
      renameSync(candidate, source.file);
      await reloaded;
    } finally {
      rmSync(candidate, { force: true });
    }
  }

  async #check(tool: ToolDefinition, file: string, candidate: string): Promise<void> {
    let tools: ToolDefinition[];
    try {
      ({ tools } = await loadTools(this.#options.modulePath, this.#options.examples, { file, candidate }));
      new ToolRegistry(tools);
      // The page the editor lives on runs the tool's example: an edit that makes it run an effect
      // for real (an invoked actor with no stand-in) would leave the author a page that cannot be
      // generated, editor and all. `baton dev` refuses the same at start-up.
      checkToolEffects(tools, { docs: true, logger: silentLogger });
    } catch (error) {
      const message =
        error instanceof ConfigurationError ? error.message : ((error as Error)?.message ?? String(error));
      throw new EditRefused(message.replaceAll(candidate, file), 'checks');
    }
    if (!tools.some((t) => t.name === tool.name)) {
      throw new EditRefused(`After the edit the tools module no longer serves "${tool.name}".`, 'checks');
    }
    // What `tsc` (and the project's `npm test`) would say of the edited file.
    const errors = await typeErrors(file, readFileSync(candidate, 'utf8'));
    if (errors && errors.length > 0) {
      const shown = errors.slice(0, 5).join('\n');
      const more = errors.length > 5 ? `\n… and ${errors.length - 5} more` : '';
      throw new EditRefused(`The edit would not compile:\n${shown}${more}`, 'checks');
    }
  }

  /** Resolves when the dev loop next swaps the served list, or after the wait. */
  #reloaded(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.#options.reloadWaitMs ?? 5000);
      const stop = this.#options.registry.onChange(done);
      function done() {
        clearTimeout(timer);
        stop();
        resolve();
      }
    });
  }

  #stateAfter(tool: ToolDefinition, source: Source, text: string): EditorState {
    return this.#state(this.#options.registry.get(tool.name) ?? tool, source, text);
  }
}
