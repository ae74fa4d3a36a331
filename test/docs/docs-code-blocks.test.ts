/**
 * Every TypeScript block in README.md and docs/*.md is checked (issue 40, item 7;
 * scripts/docs/docs-blocks.ts): a whole module compiles, as a module of a project that depends on
 * the package: it sits in examples/ (examples/tsconfig.json maps `baton-mcp`, `baton-mcp/server`
 * and `baton-mcp/testing` to the sources, and examples/tools/ holds the tools the docs name), at
 * `examples/<page>-<line>.ts`, or where its fence says with `file=<path>` (```ts file=tools/greet.ts),
 * so another block can import it. The examples/ files themselves (the API's @example regions) are
 * checked in the same program.
 *
 * An excerpt (a few states of a machine) is a copy of a region of a compiled file, named by its
 * fence (```ts region=machines/examples/release.ts#confirm-question), and must read exactly as
 * that region does (`npm run docs:examples` copies it). No block is left unchecked.
 */
import { expect } from 'chai';
import ts from 'typescript';
import { compilerOptions, REPO } from '../../scripts/docs/author-api.js';
import { codeBlocks, docPages, EXAMPLES, regionText, stalePages } from '../../scripts/docs/docs-blocks.js';

const blocks = docPages().flatMap((page) => codeBlocks(page));
const compiled = blocks.filter((block) => !block.region);
const copied = blocks.filter((block) => block.region);

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

describe(`the TypeScript blocks of the docs (${compiled.length} compiled, ${copied.length} copied from compiled files)`, function () {
  this.timeout(120_000);

  it('are each written at a path of their own, none of them a file in examples/', () => {
    const paths = compiled.map((block) => block.path);
    expect(new Set(paths).size, 'two blocks name one file=').to.equal(paths.length);
    const onDisk = compiled.filter((block) => ts.sys.fileExists(block.path)).map((block) => block.where);
    expect(onDisk, 'a block would hide the file of the same name').to.deep.equal([]);
  });

  it('are whole modules or regions of compiled files, none marked as a fragment left out', () => {
    const fences = docPages().flatMap((page) =>
      [...ts.sys.readFile(`${REPO}${page}`)!.matchAll(/^[ \t]*```(?:ts|typescript)\b[^\n]*\bfragment\b/gm)].map(
        () => page,
      ),
    );
    expect(fences, 'a ```ts fragment block: make it a region= of a compiled file').to.deep.equal([]);
  });

  it('each region block reads as its region does (if not: npm run docs:examples)', () => {
    expect(copied).to.have.length.greaterThan(10);
    // Only files a typecheck covers: examples/ here, machines/ and server/ by `tsc -p .`.
    const unchecked = copied.filter((block) => !/^(examples|machines|server)\/[^#]+\.ts#/.test(block.region!));
    expect(unchecked.map((block) => block.where)).to.deep.equal([]);
    for (const block of copied) expect(block.text, block.where).to.equal(`${regionText(block.region!)}\n`);
    expect(stalePages(), 'run `npm run docs:examples` and commit the result').to.deep.equal([]);
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
