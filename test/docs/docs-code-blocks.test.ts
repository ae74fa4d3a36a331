/**
 * Every TypeScript block in README.md and docs/*.md compiles (issue 40, item 7), as a module of a
 * project that depends on the package: it sits in examples/ (examples/tsconfig.json maps
 * `baton-mcp`, `baton-mcp/server` and `baton-mcp/testing` to the sources, and examples/tools/
 * holds the tools the docs name), at `examples/<page>-<line>.ts`, or where its fence says with
 * `file=<path>` (```ts file=tools/greet.ts), so another block can import it. The examples/ files
 * themselves (the API's @example regions) are checked in the same program.
 *
 * A block that is an excerpt (a few states of a machine, with `…` for the rest) says so in its
 * fence, ```ts fragment, and is left out; such blocks are counted, not compiled.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import ts from 'typescript';
import { compilerOptions, REPO } from '../../scripts/docs/author-api.js';

const EXAMPLES = `${REPO}examples/`;

interface CodeBlock {
  /** `docs/testing.md:96`. */
  where: string;
  fragment: boolean;
  /** Where it is compiled: an absolute path in examples/. */
  path: string;
  text: string;
}

function codeBlocks(page: string): CodeBlock[] {
  const text = readFileSync(`${REPO}${page}`, 'utf8');
  const stem = page
    .replace(/^docs\//, '')
    .replace(/\.md$/, '')
    .toLowerCase();
  const blocks: CodeBlock[] = [];
  for (const match of text.matchAll(/^([ \t]*)```(?:ts|typescript)\b([^\n]*)\n([\s\S]*?)^\1```/gm)) {
    const [, indent, info, body] = match as unknown as [string, string, string, string];
    const line = text.slice(0, match.index).split('\n').length;
    const file = /\bfile=(\S+)/.exec(info)?.[1];
    blocks.push({
      where: `${page}:${line}`,
      fragment: /\bfragment\b/.test(info),
      path: `${EXAMPLES}${file ?? `${stem}-${line}.ts`}`,
      text: body.replace(new RegExp(`^${indent}`, 'gm'), ''),
    });
  }
  return blocks;
}

const pages = [
  'README.md',
  ...readdirSync(`${REPO}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const blocks = pages.flatMap(codeBlocks);
const compiled = blocks.filter((block) => !block.fragment);

let program: ts.Program | undefined;
/** One program over examples/ and every compiled block: the server's sources are checked once. */
function examplesProgram(): ts.Program {
  if (program) return program;
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
  const config = ts.getParsedCommandLineOfConfigFile(`${EXAMPLES}tsconfig.json`, {}, host)!;
  const options = { ...compilerOptions(`${EXAMPLES}tsconfig.json`), noEmit: true };
  const virtual = new Map(compiled.map((block) => [block.path, block.text]));
  const compilerHost = ts.createCompilerHost(options);
  const { fileExists, readFile } = compilerHost;
  compilerHost.fileExists = (name) => virtual.has(name) || fileExists.call(compilerHost, name);
  compilerHost.readFile = (name) => virtual.get(name) ?? readFile.call(compilerHost, name);
  program = ts.createProgram([...config.fileNames, ...virtual.keys()], options, compilerHost);
  return program;
}

function errorsIn(path: string): string[] {
  const checked = examplesProgram();
  return ts.getPreEmitDiagnostics(checked, checked.getSourceFile(path)).map((diagnostic) => {
    const line = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line ?? -1;
    return `line ${line + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

describe(`the TypeScript blocks of the docs (${compiled.length} compiled, ${blocks.length - compiled.length} fragments)`, function () {
  this.timeout(120_000);

  it('are each written at a path of their own, none of them a file in examples/', () => {
    const paths = compiled.map((block) => block.path);
    expect(new Set(paths).size, 'two blocks name one file=').to.equal(paths.length);
    const onDisk = compiled.filter((block) => ts.sys.fileExists(block.path)).map((block) => block.where);
    expect(onDisk, 'a block would hide the file of the same name').to.deep.equal([]);
  });

  it('leave out no more excerpts than today (13): a new block compiles, or is a region of a file that does', () => {
    expect(blocks.filter((block) => block.fragment).map((block) => block.where)).to.have.length.at.most(13);
  });

  it('examples/ compiles: the @example regions and the tools the docs import', () => {
    const checked = examplesProgram();
    const errors = checked
      .getRootFileNames()
      .filter((name) => !compiled.some((block) => block.path === name))
      .flatMap((name) => errorsIn(name).map((error) => `${name.slice(REPO.length)} ${error}`));
    expect(errors).to.deep.equal([]);
  });

  for (const block of compiled) {
    it(`${block.where} compiles`, () => {
      expect(errorsIn(block.path)).to.deep.equal([]);
    });
  }
});
