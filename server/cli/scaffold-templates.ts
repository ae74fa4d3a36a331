/**
 * The files `baton new` writes: a tool (one question, accept and decline, a result), its test
 * (every path of the machine, plus one run with a named answer), and for `--project` the few
 * files a fresh project needs. `imports` says where the authoring API and the test kit come from:
 * relative paths inside this repository, the package's entry points in a project.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';

export interface ScaffoldImports {
  authoring: string;
  testing: string;
  /** From the test file to the tool's file, without the extension. */
  tool: string;
}

export function camelName(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function toolSource(name: string, imports: ScaffoldImports): string {
  const camel = camelName(name);
  return `/**
 * ${name}: asks for a name, then greets. Replace the question and the states with your flow;
 * \`npx baton diagram ${name}\` draws it, and its test walks every path (docs/authoring.md).
 */
import { assign } from 'xstate';
import { toolSetup } from '${imports.authoring}';

// The questions are declared once, by key: \`event.content\` is typed from each schema.
const ${camel}Setup = toolSetup({
  inputSchema: { type: 'object', additionalProperties: false },
  questions: {
    name: {
      kind: 'form',
      message: 'What is your name?',
      schema: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] },
    },
  },
  types: {} as { context: { name: string | null } },
});

const machine = ${camel}Setup.createMachine({
  id: '${camel}',
  initial: 'askName',
  context: { name: null },
  states: {
    // A question is a state like any other: it names the question it asks, and its answers are
    // ordinary transitions (decline and cancel included).
    askName: {
      tags: ['baton.input'],
      meta: { 'baton.input': { key: 'name' } },
      on: {
        'answer.name.accept': { target: 'done', actions: assign({ name: ({ event }) => event.content.name }) },
        'answer.name.decline': 'declined',
        'answer.name.cancel': 'declined',
      },
    },
    // The tool result is the output of the final state the flow ends in.
    done: { type: 'final', output: ({ context }) => \`Hello, \${context.name}!\` },
    declined: { type: 'final', output: 'Maybe next time.' },
  },
});

export const ${camel}Tool = ${camel}Setup.defineTool({
  name: '${name}',
  description: 'Greets the user by name. (Say what ${name} does: clients and models read this.)',
  machine,
});
`;
}

export function testSource(name: string, imports: ScaffoldImports): string {
  const camel = camelName(name);
  return `import assert from 'node:assert/strict';
import { accept, describePaths, runFlow } from '${imports.testing}';
import { ${camel}Tool } from '${imports.tool}.js';

// One test per path of the machine: each question accepted, declined and cancelled.
describePaths(${camel}Tool);

describe('${name}', () => {
  it('greets the user by the name they give', async () => {
    const run = await runFlow(${camel}Tool, {}, { name: accept({ name: 'Ada' }) });
    assert.equal(run.outcome, 'complete');
    assert.deepEqual(run.result?.content, [{ type: 'text', text: 'Hello, Ada!' }]);
  });
});
`;
}

/** The import line and list entry that register a tool in a tools module. */
export function registration(name: string, from: string): { importLine: string; entry: string } {
  const camel = camelName(name);
  return { importLine: `import { ${camel}Tool } from '${from}.js';`, entry: `${camel}Tool,` };
}

export const REGISTRATION_MARKER = '// baton new: registrations go above this line';

export function projectToolsIndex(name: string): string {
  const { importLine, entry } = registration(name, `./${name}`);
  return `/** What this project serves: \`baton new <tool>\` adds each tool here. */
import type { ToolDefinition } from 'baton-mcp';
${importLine}

export const tools: ToolDefinition[] = [
  ${entry}
  ${REGISTRATION_MARKER}
];
`;
}

/** A dependency's range as this package declares it, so a project gets what Baton is tested with. */
interface OwnManifest {
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function ownManifest(): OwnManifest {
  return JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as OwnManifest;
}

/** The Node lines Baton declares (and CI tests): a project on it runs on the same. */
function ownNodeRange(): string {
  const range = ownManifest().engines?.node;
  if (!range) throw new Error('package.json declares no engines.node');
  return range;
}

function ownRange(name: string): string {
  const manifest = ownManifest();
  // A peer's range first: the project must install an xstate inside the window Baton declares.
  const range = manifest.peerDependencies?.[name] ?? manifest.dependencies?.[name] ?? manifest.devDependencies?.[name];
  if (!range) throw new Error(`package.json lists no ${name}`);
  return range;
}

/** `dependency`: how the project depends on baton-mcp (package-specifier.ts); `tool`: its first tool. */
export function projectFiles(project: string, dependency: string, tool: string): Record<string, string> {
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    'package.json': json({
      name: project,
      version: '0.1.0',
      private: true,
      type: 'module',
      // Every baton command serves, calls, draws and documents the tools this module exports.
      baton: { tools: 'tools/index.ts' },
      engines: { node: ownNodeRange() },
      scripts: {
        start: 'baton serve',
        dev: 'baton dev',
        // A tool whose structure changed with nothing kept fails here, before a deploy restarts
        // its flows in flight (baton.versions.json; npx baton versions records a change).
        test: 'baton versions check && tsc --noEmit && mocha',
        docs: 'baton docs',
        new: 'baton new',
      },
      dependencies: { 'baton-mcp': dependency, xstate: ownRange('xstate') },
      devDependencies: {
        '@types/mocha': ownRange('@types/mocha'),
        '@types/node': ownRange('@types/node'),
        mocha: ownRange('mocha'),
        tsx: ownRange('tsx'),
        typescript: ownRange('typescript'),
      },
    }),
    'tsconfig.json': json({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node', 'mocha'],
      },
      include: ['tools', 'test'],
    }),
    '.mocharc.json': json({ 'node-option': ['import=tsx'], extension: ['ts'], spec: ['test/**/*.test.ts'] }),
    '.gitignore': 'node_modules/\n',
    'README.md': `# ${project}

MCP tools served by [Baton](https://www.npmjs.com/package/baton-mcp), each an XState machine under
tools/. \`tools/index.ts\` lists them; package.json names it (\`"baton": { "tools": … }\`), and every
\`baton\` command takes the tools from there.

\`\`\`sh
npm install
npm start                   # serve on http://127.0.0.1:3000/mcp (npx baton stdio: over stdin/stdout)
npm run dev                 # the same, reloading the tools on every save
npm test                    # versions check, then every path of every tool, through real rounds
npx baton versions          # record a tool's changed structure in baton.versions.json
npx baton versions keep ${tool}  # keep the committed ${tool} for the flows in flight (docs/deploy.md)
npx baton call ${tool}        # walk a tool's flow in the terminal
npx baton diagram ${tool}     # its state diagram (Mermaid)
npx baton docs              # a page per tool in docs/tools/
npx baton new <tool>        # another tool, its test and its registration
\`\`\`
`,
  };
}
