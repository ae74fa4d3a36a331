/**
 * The `@example`s of the author's API are compiled code: each is the `// #region <name>` of a file in
 * examples/ (type-checked with the package's names, examples/tsconfig.json), copied into the doc
 * comment of the declaration it names (`toolSetup`, or `ToolSetup.ask` for a property of an
 * exported type). `syncedSources()` is what the sources should be; `npm run docs:examples` writes
 * it, and test/docs/api-examples.test.ts fails while any differs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { exportedByName, REPO } from './author-api.js';

export const EXAMPLES_DIR = `${REPO}examples/`;

export interface ExampleRegion {
  /** The declaration it documents: `toolSetup`, `ToolSetup.ask`. */
  name: string;
  /** Where it is written, relative to the repository. */
  file: string;
  /** Its lines, without the common indentation. */
  text: string;
}

/** Every region of every `*.example.ts` file. */
export function exampleRegions(): ExampleRegion[] {
  const files = readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith('.example.ts'));
  return files.flatMap((name) => regionsOf(`examples/${name}`, readFileSync(`${EXAMPLES_DIR}${name}`, 'utf8')));
}

export function regionsOf(file: string, text: string): ExampleRegion[] {
  const regions: ExampleRegion[] = [];
  let open: { name: string; lines: string[] } | undefined;
  for (const line of text.split('\n')) {
    const start = /^\s*\/\/ #region (\S+)/.exec(line);
    if (start) {
      if (open) throw new Error(`${file}: region ${start[1]} opens inside region ${open.name}`);
      open = { name: start[1]!, lines: [] };
    } else if (/^\s*\/\/ #endregion/.test(line)) {
      if (!open) throw new Error(`${file}: #endregion without a #region`);
      regions.push({ name: open.name, file, text: dedent(open.lines) });
      open = undefined;
    } else open?.lines.push(line);
  }
  if (open) throw new Error(`${file}: region ${open.name} is not closed`);
  return regions;
}

function dedent(lines: string[]): string {
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length);
  const common = Math.min(...indents);
  return lines.map((line) => line.slice(common).trimEnd()).join('\n');
}

/** The doc comment `comment` (indented by `indent`) with `example` as its one `@example`, last. */
export function withExample(comment: string, indent: string, example: string): string {
  if (example.includes('*/')) throw new Error('an example cannot hold "*/": it would end the comment');
  const single = /^\/\*\*\s*(.*?)\s*\*\/$/s.exec(comment);
  const lines =
    single && !comment.includes('\n') ? ['/**', `${indent} * ${single[1]}`, `${indent} */`] : comment.split('\n');
  const start = lines.findIndex((line) => /^\s*\* @example\b/.test(line));
  if (start !== -1) {
    const end = lines.findIndex((line, i) => i > start && (/^\s*\* @\w/.test(line) || /^\s*\*\/$/.test(line)));
    lines.splice(start, end - start);
  }
  const body = ['@example', '```ts', ...example.split('\n'), '```'].map((line) =>
    line === '' ? `${indent} *` : `${indent} * ${line}`,
  );
  lines.splice(lines.length - 1, 0, ...body);
  return lines.join('\n');
}

/** The node whose doc comment an editor shows for `declaration` (a variable's is on its statement). */
function documentedNode(declaration: ts.Declaration): ts.Node {
  return ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
}

/** Each source file the regions document, as it should read (whether or not it already does). */
export function syncedSources(regions = exampleRegions()): Map<string, string> {
  const edits = new Map<string, Array<{ start: number; end: number; text: string }>>();
  for (const region of regions) {
    const { declaration } = exportedByName(region.name);
    const node = documentedNode(declaration);
    const source = node.getSourceFile();
    const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
    const doc = docs.at(-1);
    if (!doc) throw new Error(`${region.name} has no doc comment to hold the example from ${region.file}`);
    const start = doc.getStart(source);
    const lineStart = source.text.lastIndexOf('\n', start) + 1;
    const indent = source.text.slice(lineStart, start);
    const text = withExample(source.text.slice(start, doc.end), indent, region.text);
    edits.set(source.fileName, [...(edits.get(source.fileName) ?? []), { start, end: doc.end, text }]);
  }
  const synced = new Map<string, string>();
  for (const [file, fileEdits] of edits) {
    let text = readFileSync(file, 'utf8');
    for (const edit of fileEdits.sort((a, b) => b.start - a.start)) {
      text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    }
    synced.set(file, text);
  }
  return synced;
}

/** The documented sources whose examples differ from their regions, relative to the repository. */
export function staleSources(synced = syncedSources()): string[] {
  return [...synced]
    .filter(([file, text]) => readFileSync(file, 'utf8') !== text)
    .map(([file]) => file.slice(REPO.length));
}
