/**
 * Which way the source tree's imports point (docs/architecture.md, "Layout"), read from the
 * sources: the framework never imports the example machines (only the command line does), the
 * engine imports no transport, the authoring API imports nothing but XState, flows and tasks
 * share the round kernel without reaching each other, the transport-free service reaches no Koa,
 * and the docs site, the test kit and `baton call` stand on one conversation runner
 * (server/simulation) and on nothing of each other.
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

  it('keeps identity at the edge: jose only in server/identity, and identity free of Koa', () => {
    const offenders = sourcesUnder(join(REPO, 'server'))
      .filter((file) => !relative(REPO, file).startsWith('server/identity/'))
      .filter((file) => importsOf(file).some((specifier) => specifier === 'jose'));
    expect(offenders.map((file) => relative(REPO, file))).to.deep.equal([]);
    const { packages } = graphOf('server/identity/index.ts');
    expect([...packages].some((name) => name === 'koa' || name.startsWith('@koa/'))).to.equal(false);
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

  it('keeps telemetry on the OpenTelemetry API alone, importing nothing of Baton', () => {
    const { files, packages } = graphOf('server/telemetry/index.ts');
    expect([...packages]).to.deep.equal(['@opentelemetry/api']);
    expect(files.filter((file) => !file.startsWith('server/telemetry/'))).to.deep.equal([]);
    // Only `baton serve` loads the SDK (and the exporter and reader it gives it), and only by a dynamic import
    // when a setting asks for it: what names the SDK statically names its types alone.
    const sdkUsers = sourcesUnder(join(REPO, 'server'))
      .filter((file) => importsOf(file).some((specifier) => /^@opentelemetry\/(?!api$)/.test(specifier)))
      .map((file) => relative(REPO, file));
    expect(sdkUsers).to.deep.equal([
      'server/settings/otlp-metric-reader.ts',
      'server/settings/otlp-trace-exporter.ts',
      'server/settings/telemetry-sdk.ts',
    ]);
    for (const file of sdkUsers) {
      const loaded = [
        ...readFileSync(join(REPO, file), 'utf8').matchAll(/^import (?!type )[^;]*'@opentelemetry\/[^']+'/gm),
      ];
      expect(
        loaded.map((match) => match[0]),
        file,
      ).to.deep.equal([]);
    }
  });

  it('reads the environment below the command line: only server/cli/ imports cli/ (no serve.ts <-> cli/ cycle)', () => {
    const offenders = sourcesUnder(join(REPO, 'server'))
      .filter((file) => !relative(REPO, file).startsWith('server/cli/'))
      .filter((file) => importsOf(file).some((specifier) => /(^|\/)cli\//.test(specifier)));
    expect(offenders.map((file) => relative(REPO, file))).to.deep.equal([]);
    // serve() and `baton serve` read one settings module.
    expect(graphOf('server/serve.ts').files).to.include('server/settings/environment-config.ts');
  });

  it("loads Stately's parser only in baton dev's editor: one module names it, and no serving path reaches it", () => {
    // The parser (a bundle with its own XState v4 in a package, tools/statechart-parser in a clone)
    // is for drawing a tool, never for serving one.
    const naming = sourcesUnder(join(REPO, 'server'))
      .filter((file) =>
        /['"](baton-statechart-parser|\.\/statechart-parser\/index\.cjs)['"]/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => relative(REPO, file));
    expect(naming).to.deep.equal(['server/cli/editor/statechart-source.ts']);
    const editor = (entry: string) => graphOf(entry).files.filter((file) => file.startsWith('server/cli/editor/'));
    for (const entry of [
      'server/index.ts',
      'server/serve.ts',
      'server/cli/serve-command.ts',
      'server/cli/stdio-command.ts',
      'server/cli/docs-command.ts',
    ]) {
      expect(editor(entry), entry).to.deep.equal([]);
    }
    expect(editor('server/cli/dev-command.ts')).to.include('server/cli/editor/statechart-source.ts');
  });

  it('assembles the service in one place: only createMcpService builds a dispatcher or a task runtime', () => {
    // A FlowEngine or ToolRegistry of its own is fine (a replay's fork engine, the editor's checks).
    const assembling = /\b(createMcpDispatcher|startTaskRuntime)\(/;
    const assemblers = sourcesUnder(join(REPO, 'server'))
      .map((file) => relative(REPO, file))
      .filter((file) => assembling.test(readFileSync(join(REPO, file), 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '')))
      .filter((file) => !/\/(create-mcp-dispatcher|task-runtime)\.ts$/.test(file));
    expect(assemblers).to.deep.equal(['server/create-mcp-service.ts']);
    // The in-process server of the docs, the test kit and `baton call` runs that same service.
    expect(graphOf('server/simulation/simulated-server.ts').files).to.include('server/create-mcp-service.ts');
  });

  it('builds the service without Koa (createMcpService)', () => {
    const { packages } = graphOf('server/create-mcp-service.ts');
    expect([...packages]).to.not.include.members(['koa', '@koa/router']);
    expect([...packages].some((name) => name.startsWith('koa'))).to.equal(false);
  });

  describe('the conversation runner and its three users', () => {
    const RUNNER = 'server/simulation/run-rounds.ts';
    const under = (files: string[], folder: string) => files.filter((file) => file.startsWith(folder));

    it('keeps the docs site off the test kit, and runs its examples on the runner', () => {
      const { files } = graphOf('server/docs-site/index.ts');
      expect(under(files, 'server/testing/')).to.deep.equal([]);
      expect(files).to.include(RUNNER);
    });

    it('keeps the test kit off the docs site, and replays its paths on the runner', () => {
      const { files } = graphOf('server/testing/index.ts');
      expect(under(files, 'server/docs-site/')).to.deep.equal([]);
      expect(files).to.include(RUNNER);
    });

    it('walks `baton call` on the runner, importing neither the docs site nor the test kit', () => {
      // The in-process server it starts reaches the docs routes (createServer), not its own files.
      expect(graphOf('server/cli/call-command.ts').files).to.include(RUNNER);
      const calls = sourcesUnder(join(REPO, 'server', 'cli')).filter((file) => /\/call-[^/]*\.ts$/.test(file));
      expect(calls).to.have.length.greaterThan(2);
      const offenders = calls.filter((file) =>
        importsOf(file).some((specifier) => /(^|\/)(docs-site|testing)\//.test(specifier)),
      );
      expect(offenders.map((file) => relative(REPO, file))).to.deep.equal([]);
    });

    it('keeps the runner below them: server/simulation imports none of its users', () => {
      const offenders = sourcesUnder(join(REPO, 'server', 'simulation')).filter((file) =>
        importsOf(file).some((specifier) => /(^|\/)(docs-site|testing|cli|http|stdio)\//.test(specifier)),
      );
      expect(offenders.map((file) => relative(REPO, file))).to.deep.equal([]);
    });
  });
});
