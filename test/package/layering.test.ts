/**
 * Which way the source tree's imports point (docs/architecture.md, "Layout"), read from the
 * sources: the framework never imports the example machines (only the command line does), the
 * engine imports no transport, the authoring API imports nothing but XState, flows and tasks
 * share the round kernel without reaching each other, and the transport-free service reaches no
 * Koa.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The specifiers a file imports (value and type imports, re-exports, dynamic imports). */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const found = [
    ...source.matchAll(/(?:^|\n)\s*(?:import|export)[^'";]*?from\s*['"]([^'"]+)['"]/g),
    ...source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ];
  return found.map((match) => match[1]!);
}

/** Every file reached from `entry` through relative imports, and the packages named on the way. */
function graphOf(entry: string): { files: string[]; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
      else
        packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
    }
  };
  visit(join(REPO, entry));
  return { files: [...files].map((file) => relative(REPO, file)), packages };
}

describe('layering of the source tree', () => {
  it('imports machines/ only from the command line (server/cli/)', () => {
    const offenders = sourcesUnder(join(REPO, 'server'))
      .filter((file) => !relative(REPO, file).startsWith('server/cli/'))
      .filter((file) => importsOf(file).some((specifier) => /(^|\/)machines\//.test(specifier)));
    expect(offenders.map((file) => relative(REPO, file))).to.deep.equal([]);
  });

  it('keeps the engine free of the transports: no import of http/, stdio/, protocol/ or Koa', () => {
    const offenders = sourcesUnder(join(REPO, 'server', 'engine')).filter((file) =>
      importsOf(file).some(
        (specifier) => /(^|\/)(http|stdio|protocol)\//.test(specifier) || /^(koa|@koa\/)/.test(specifier),
      ),
    );
    expect(offenders.map((file) => relative(REPO, file))).to.deep.equal([]);
  });

  it('keeps the authoring API (the baton entry) to XState and types', () => {
    const { files, packages } = graphOf('server/engine/authoring/index.ts');
    expect([...packages].sort()).to.deep.equal(['json-schema-to-ts', 'xstate']);
    expect(files.filter((file) => !file.startsWith('server/engine/authoring/'))).to.have.members([
      'server/engine/configuration-error.ts',
      'server/engine/flow/prompt-result.ts',
      'server/engine/flow/resource-result.ts',
    ]);
  });

  it('keeps flow/ and tasks/ apart: each builds on the round kernel (round/), neither reaches the other', () => {
    const reached = (entry: string, folder: string) =>
      graphOf(entry).files.filter((file) => file.startsWith(`server/engine/${folder}/`));
    const flow = 'server/engine/flow/flow-engine.ts';
    const tasks = 'server/engine/tasks/index.ts';
    expect(reached(flow, 'tasks'), 'flow -> tasks').to.deep.equal([]);
    expect(reached(tasks, 'flow'), 'tasks -> flow').to.deep.equal([]);
    expect(reached('server/engine/round/index.ts', 'flow'), 'round -> flow').to.deep.equal([]);
    expect(reached('server/engine/round/index.ts', 'tasks'), 'round -> tasks').to.deep.equal([]);
    expect(reached(flow, 'round')).to.include('server/engine/round/round-kernel.ts');
    expect(reached(tasks, 'round')).to.include('server/engine/round/round-kernel.ts');
  });

  it('builds the service without Koa (createMcpService)', () => {
    const { packages } = graphOf('server/create-mcp-service.ts');
    expect([...packages]).to.not.include.members(['koa', '@koa/router']);
    expect([...packages].some((name) => name.startsWith('koa'))).to.equal(false);
  });
});
