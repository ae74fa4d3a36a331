/**
 * An edit type-checked as the author's own `tsc` would check it, before it is written: the
 * project's TypeScript (resolved from the edited file, so its version and settings are the
 * author's), the project's tsconfig.json, and the edited file read as the candidate's text. Only the
 * edited file's errors count: an error elsewhere in the project is not the edit's doing, and must
 * not block drawing. A project without a tsconfig.json or without TypeScript installed, and a JSON
 * machine, are not type-checked (the start-up checks still are).
 *
 * The last program is kept per tsconfig, so the next check re-reads only what changed.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as TypeScript from 'typescript';

type Ts = typeof TypeScript;

const programs = new Map<string, TypeScript.Program>();

/**
 * The tsconfig.json between the file and its project's root (the nearest package.json): a
 * config above the project belongs to something else (a repository the project sits in).
 */
function projectConfig(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'tsconfig.json'))) return join(dir, 'tsconfig.json');
    if (existsSync(join(dir, 'package.json')) || dirname(dir) === dir) return undefined;
  }
}

async function typescriptFor(file: string): Promise<Ts | undefined> {
  try {
    const resolved = createRequire(file).resolve('typescript');
    const loaded = (await import(pathToFileURL(resolved).href)) as { default?: Ts } & Ts;
    return loaded.default ?? loaded;
  } catch {
    return undefined;
  }
}

/**
 * The compile errors `text` would have as `file` (`greet.ts:12:5 - …`), or undefined when the
 * project cannot be type-checked here.
 */
export async function typeErrors(file: string, text: string): Promise<string[] | undefined> {
  if (!/\.(ts|mts|cts|tsx)$/.test(file)) return undefined;
  const ts = await typescriptFor(file);
  if (!ts) return undefined;
  const configPath = projectConfig(file);
  if (!configPath) return undefined;
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
  const config = ts.getParsedCommandLineOfConfigFile(configPath, { noEmit: true }, host);
  if (!config) return undefined;
  const compilerHost = ts.createCompilerHost(config.options);
  const { readFile, getSourceFile } = compilerHost;
  const same = (name: string) => ts.sys.resolvePath(name) === ts.sys.resolvePath(file);
  compilerHost.readFile = (name) => (same(name) ? text : readFile.call(compilerHost, name));
  compilerHost.getSourceFile = (name, version, onError, shouldCreate) =>
    same(name)
      ? ts.createSourceFile(name, text, version, true)
      : getSourceFile.call(compilerHost, name, version, onError, shouldCreate);
  const roots = config.fileNames.some(same) ? config.fileNames : [...config.fileNames, file];
  const oldProgram = programs.get(configPath);
  const program = ts.createProgram({
    rootNames: roots,
    options: config.options,
    host: compilerHost,
    ...(oldProgram ? { oldProgram } : {}),
  });
  programs.set(configPath, program);
  const source = program.getSourceFiles().find((candidate) => same(candidate.fileName));
  return ts.getPreEmitDiagnostics(program, source).map((diagnostic) => {
    const where = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const at = where ? `${relative(dirname(configPath), file)}:${where.line + 1}:${where.character + 1} - ` : '';
    return `${at}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}
