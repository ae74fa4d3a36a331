/**
 * The author's API as the compiler sees it: every name the three package entry points export
 * (`baton-mcp`, `baton-mcp/server`, `baton-mcp/testing`), followed to the declaration it names,
 * with the doc comment written there. One program over the three entry points, built once.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Each package specifier and the source file its `exports` entry is built from. */
export const ENTRY_POINTS: Record<string, string> = {
  'baton-mcp': `${REPO}server/engine/authoring/index.ts`,
  'baton-mcp/testing': `${REPO}server/testing/index.ts`,
  'baton-mcp/server': `${REPO}server/index.ts`,
};

export interface ExportedName {
  /** `baton-mcp/testing: runFlow`, or `baton-mcp: ToolSetup.ask` for a property of an exported type. */
  label: string;
  /** The text of the doc comment at the declaration ('' when there is none). */
  documentation: string;
  /** The bodies of its `@example` tags. */
  examples: string[];
  declaration: ts.Declaration;
}

let program: ts.Program | undefined;

/** The compiler options of `tsconfig` (default: the repository's), as `tsc -p` reads them. */
export function compilerOptions(tsconfig = `${REPO}tsconfig.json`): ts.CompilerOptions {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
  return ts.getParsedCommandLineOfConfigFile(tsconfig, {}, host)!.options;
}

function entryProgram(): ts.Program {
  program ??= ts.createProgram(Object.values(ENTRY_POINTS), { ...compilerOptions(), noEmit: true });
  return program;
}

function describeSymbol(label: string, symbol: ts.Symbol, checker: ts.TypeChecker): ExportedName {
  return {
    label,
    documentation: ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim(),
    examples: symbol
      .getJsDocTags(checker)
      .filter((tag) => tag.name === 'example')
      .map((tag) => ts.displayPartsToString(tag.text)),
    declaration: symbol.declarations![0]!,
  };
}

function exportsOf(specifier: string): ts.Symbol[] {
  const checker = entryProgram().getTypeChecker();
  const module = checker.getSymbolAtLocation(entryProgram().getSourceFile(ENTRY_POINTS[specifier]!)!)!;
  // An export names an alias; its documentation lives on the declaration the alias resolves to.
  return checker
    .getExportsOfModule(module)
    .map((exported) => (exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported));
}

/** Every exported name of every entry point, in the order each entry point exports them. */
export function exportedNames(): ExportedName[] {
  const checker = entryProgram().getTypeChecker();
  return Object.keys(ENTRY_POINTS).flatMap((specifier) =>
    exportsOf(specifier).map((declared) => describeSymbol(`${specifier}: ${declared.name}`, declared, checker)),
  );
}

/** A property of an exported type, e.g. `ask` of `ToolSetup` (the builders `toolSetup` returns). */
export function exportedProperty(specifier: string, typeName: string, property: string): ExportedName {
  const checker = entryProgram().getTypeChecker();
  const declared = exportsOf(specifier).find((symbol) => symbol.name === typeName);
  if (!declared) throw new Error(`${specifier} exports no ${typeName}`);
  const type = checker.getTypeAtLocation(declared.declarations![0]!);
  const member = type.getProperty(property);
  if (!member) throw new Error(`${typeName} has no property ${property}`);
  return describeSymbol(`${specifier}: ${typeName}.${property}`, member, checker);
}

/** The exported name `toolSetup`, or the property `ToolSetup.ask`, from whichever entry point exports it. */
export function exportedByName(name: string): ExportedName {
  const [typeName, property] = name.split('.');
  for (const specifier of Object.keys(ENTRY_POINTS)) {
    if (!exportsOf(specifier).some((symbol) => symbol.name === typeName)) continue;
    if (property) return exportedProperty(specifier, typeName!, property);
    return exportedNames().find((exported) => exported.label === `${specifier}: ${name}`)!;
  }
  throw new Error(`no entry point exports ${typeName}`);
}
