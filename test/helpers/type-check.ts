/**
 * The compiler of the type-level tests: files held in memory (new files, or a real file's text
 * replaced) checked in process with the repository's tsconfig.json, the same strict settings as
 * `npm run typecheck`. A program costs seconds to check, so every file added while the test files
 * load is checked in one program, built when the first test asks. (In mocha's parallel mode a
 * worker loads test files one after another: a file added after the build makes a new program.)
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const TSCONFIG = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
const files = new Map<string, string>();
/** The program over the files added so far (undefined once more are added), and the last one built. */
let current: ts.Program | undefined;
let last: ts.Program | undefined;

/** The repository's compiler options, as tsconfig.json sets them. */
export function repositoryOptions(): ts.CompilerOptions {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
  return ts.getParsedCommandLineOfConfigFile(TSCONFIG, {}, host)!.options;
}

/** Adds files to check, by absolute path. Call it while the test file loads (in `describe`). */
export function addTypeCheckFiles(entries: Record<string, string>): void {
  for (const [name, text] of Object.entries(entries)) files.set(name, text);
  current = undefined;
}

export interface TypeError {
  /** 0-based, as the compiler counts. */
  line: number;
  text: string;
}

/** The compile errors in `file` (one of the added files), each with its line and full message. */
export function typeErrors(file: string): TypeError[] {
  if (!files.has(file)) throw new Error(`typeErrors: ${file} was not added`);
  current ??= build();
  return ts.getPreEmitDiagnostics(current, current.getSourceFile(file)).map((d) => ({
    line: d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line : -1,
    text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}

function build(): ts.Program {
  const options = { ...repositoryOptions(), noEmit: true };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  // The previous program lends its parsed files; only the checking is done again.
  last = ts.createProgram([...files.keys()], options, host, last);
  return last;
}
