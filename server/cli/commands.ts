/**
 * The `baton` command table: every command, what it takes, declared once. `baton --help` lists
 * them, `baton <command> --help` prints one's usage, and the parser (command-line.ts) holds each
 * command line to its declaration. A command's code is loaded only when it runs, so `serve`
 * never loads the docs generator and `--help` loads nothing.
 */
import { parseCommandLine, type CommandSpec, type OptionSpec, type OptionValues } from './command-line.js';

const TOOLS = {
  type: 'string',
  value: 'FILE',
  description: 'the tools module (default: "baton": { "tools": … } in package.json)',
} as const satisfies OptionSpec;
const CONFORMANCE = {
  type: 'boolean',
  description: 'also the conformance-suite fixtures (or BATON_CONFORMANCE=1)',
} as const satisfies OptionSpec;

function command<const O extends Record<string, OptionSpec>>(
  spec: CommandSpec<O>,
  run: (values: OptionValues<O>, positional: string | undefined, argv: string[]) => Promise<number>,
) {
  return { spec, run };
}

/** `baton call`: declared apart, since callCommand(argv) parses its own command line with it. */
export const CALL_SPEC = {
  name: 'call',
  summary: "Walk a tool's flow in the terminal: baton call <tool>",
  details:
    "Walks a tool's flow: asks each question in the terminal and prints the result. A tool run as a\ntask is followed to its end, its status on stderr; Ctrl+C cancels the task (tasks/cancel).",
  positional: { name: 'tool', required: true, description: 'the tool to call' },
  options: {
    tools: TOOLS,
    url: {
      type: 'string',
      value: 'URL',
      description: "call a running server's MCP endpoint (default: the tools, in this process)",
    },
    args: {
      type: 'string',
      value: 'JSON',
      description: "the arguments (default: asked for; the tool's example arguments are offered)",
    },
    answers: {
      type: 'string',
      value: 'JSON',
      description: [
        'answers by question key, for scripts and CI: no prompts at all',
        '{"window": {"window": "tonight"}, "confirm": {"confirm": true}}',
        'a value is form content, "accept" / "decline" / "cancel", a full response',
        '({"action": "decline"}), or a list with one per time the question is asked;',
        'inside a task, "approve" also answers "approve.2", … (by the same rule)',
      ].join('\n'),
    },
    token: { type: 'string', value: 'TOKEN', description: 'bearer token for --url (or BATON_CALL_TOKEN)' },
    json: { type: 'boolean', description: 'print the whole final result as JSON' },
    conformance: { type: 'boolean', description: 'in process: also serve the conformance fixtures' },
  },
} as const satisfies CommandSpec;

/** `baton tasks`: declared apart, since tasksCommand reads its second positional (the task id) with it. */
export const TASKS_SPEC = {
  name: 'tasks',
  summary: "See and cancel the fleet's tasks: baton tasks list | show <id> | cancel <id>",
  details:
    "Lists, shows and cancels every principal's tasks in the fleet's task store (BATON_REDIS_URL,\nopened with BATON_KEYS), as the console does (docs/console.md). Exit codes: 0 done, 1 no such\ntask, 2 a usage error.",
  positional: { name: 'action', required: true, description: 'list, show or cancel' },
  extra: { name: 'id', required: false, description: 'the task to show or cancel' },
  options: {
    status: { type: 'string', value: 'S', description: 'list: only these statuses (working,input_required,…)' },
    tool: { type: 'string', value: 'T', description: 'list: only this tool' },
    stuck: { type: 'boolean', description: 'list: only the tasks that look stuck, and why' },
    limit: { type: 'string', value: 'N', description: 'list: at most N tasks (100)' },
    cursor: { type: 'string', value: 'C', description: 'list: go on where a listing stopped (it prints the cursor)' },
    json: { type: 'boolean', description: 'print JSON' },
  },
} as const satisfies CommandSpec;

/** `baton versions`: declared apart, since `keep` takes the tool as a second positional. */
export const VERSIONS_SPEC = {
  name: 'versions',
  summary: "Record each tool's structural version in baton.versions.json: baton versions [check | keep TOOL]",
  details:
    "Writes baton.versions.json (beside package.json): each tool's structural version and states.\n`check` writes nothing and exits 1 when a tool changed since (run it in CI). A tool whose previous\nversion is neither kept nor migrated is refused unless --restart names it. `keep TOOL` copies the\ntool's file as committed (git show HEAD:FILE) beside it as FILE.vN.ts and lists it in the tool's\n`versions`. Exit codes: 0 done, 1 a change to deal with, 2 a usage error (docs/deploy.md).",
  positional: { name: 'action', required: false, description: 'check: compare, write nothing; keep: keep TOOL' },
  extra: { name: 'tool', required: false, description: 'keep: the tool whose committed version to keep' },
  options: {
    tools: TOOLS,
    file: { type: 'string', value: 'FILE', description: 'the lockfile (default: baton.versions.json)' },
    restart: {
      type: 'string',
      value: 'TOOLS',
      description: 'let these tools (comma-separated) restart their flows in flight',
    },
    ref: { type: 'string', value: 'REV', description: 'keep: the commit to keep the tool from (default: HEAD)' },
    source: { type: 'string', value: 'FILE', description: "keep: the tool's file (default: found by its name: line)" },
  },
} as const satisfies CommandSpec;

/** What a command answers: an exit code, or -1 for a command that keeps running (a server). */
export const COMMANDS = [
  command(
    {
      name: 'serve',
      summary: 'Serve the tools over HTTP (settings: docs/configuration.md)',
      details:
        'Serves the tools over HTTP on PORT (3000) and HOST (127.0.0.1), with the settings of\ndocs/configuration.md.',
      options: {
        tools: TOOLS,
        conformance: CONFORMANCE,
        workers: { type: 'string', value: 'N', description: 'fork N worker processes sharing the port (node:cluster)' },
        console: { type: 'boolean', description: "the operators' console at /console (or BATON_CONSOLE=1)" },
      },
    },
    async (values) => (await import('./serve-command.js')).serveCommand(values),
  ),
  command(
    {
      name: 'stdio',
      summary: 'Serve the same tools over stdin/stdout (BATON_PRINCIPAL names the user)',
      options: { tools: TOOLS, conformance: CONFORMANCE },
    },
    async (values) => (await import('./stdio-command.js')).stdioCommand(values),
  ),
  command(
    {
      name: 'dev',
      summary: 'Serve over HTTP and reload the tools on every save, in one process',
      details:
        'Serves the tools over HTTP as `baton serve` does (same settings, same warnings) and reloads\nthem whenever a file of the project is saved, created or deleted.',
      options: { tools: TOOLS },
    },
    async (values) => (await import('./dev-command.js')).devCommand(values),
  ),
  command(CALL_SPEC, async (_values, _positional, argv) => (await import('./call-command.js')).callCommand(argv)),
  command(
    {
      name: 'diagram',
      summary: "Print a tool's Mermaid state diagram: baton diagram <tool>",
      positional: { name: 'tool', required: false, description: 'the tool (or prompt, or resource) to draw' },
      options: {
        tools: TOOLS,
        sequence: { type: 'boolean', description: 'the sequence diagram of its example conversation instead' },
      },
    },
    async (values, positional) => (await import('./docs-command.js')).diagramCommand(values, positional),
  ),
  command(
    {
      name: 'export',
      summary: "Write a tool's machine as XState JSON, for the Stately editor: baton export <tool> --json",
      details:
        "Writes the machine's config as XState JSON, questions included as data (the baton.input tag\nand meta). Code (context, output, inline guards and actions, computed messages) stays in the tool.",
      positional: { name: 'tool', required: false, description: 'the tool to export' },
      options: {
        tools: TOOLS,
        json: { type: 'boolean', description: 'XState JSON (the format written; the default)' },
        out: { type: 'string', value: 'FILE', description: 'write to FILE instead of stdout' },
      },
    },
    async (values, positional) => (await import('./export-command.js')).exportCommand(values, positional),
  ),
  command(
    {
      name: 'docs',
      summary: "Write a page per tool to docs/tools/ (the project's), with its diagrams",
      options: {
        tools: TOOLS,
        out: { type: 'string', value: 'DIR', description: 'where to write (default: docs/tools/ beside package.json)' },
        check: { type: 'boolean', description: 'write nothing; fail (exit 1) if the pages differ' },
        conformance: CONFORMANCE,
      },
    },
    async (values) => (await import('./docs-command.js')).docsCommand(values),
  ),
  command(
    {
      name: 'new',
      summary: 'Write a tool, its test and its registration: baton new <tool>',
      details:
        'Writes a tool, its test and its registration in the tools module, or with --project a new\nproject that installs and runs as written. Never overwrites a file.',
      positional: { name: 'tool', required: false, description: 'the tool, lower-case words joined by dashes' },
      options: {
        project: { type: 'string', value: 'DIR', description: 'start a new project in DIR (its first tool: hello)' },
        tools: {
          type: 'string',
          value: 'FILE',
          description: 'the tools module to register in (default: package.json)',
        },
        root: { type: 'string', value: 'DIR', description: "a Baton checkout's layout under DIR (machines/tools/)" },
      },
    },
    async (values, positional) => (await import('./new-command.js')).newCommand(values, positional),
  ),
  command(VERSIONS_SPEC, async (values, positional, argv) =>
    (await import('./versions-command.js')).versionsCommand(
      values,
      positional,
      undefined,
      parseCommandLine(VERSIONS_SPEC, argv).extra,
    ),
  ),
  command(TASKS_SPEC, async (values, positional, argv) =>
    (await import('./tasks-command.js')).tasksCommand(values, positional, parseCommandLine(TASKS_SPEC, argv).extra),
  ),
  command(
    {
      name: 'keygen',
      summary: 'Print a new key entry for BATON_KEYS ("kid:base64key")',
      positional: { name: 'kid', required: false, description: 'the key id (default: a date-based one)' },
      options: {},
    },
    async (_values, positional) => {
      const { generateKeyEntry } = await import('../engine/index.js');
      process.stdout.write(`${generateKeyEntry(positional)}\n`);
      return 0;
    },
  ),
];

export type CommandEntry = (typeof COMMANDS)[number];

export function topLevelUsage(): string {
  const width = Math.max(...COMMANDS.map(({ spec }) => spec.name.length));
  return [
    'Usage: baton <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map(({ spec }) => `  ${spec.name.padEnd(width)}  ${spec.summary}`),
    '',
    '`baton <command> --help` prints what a command takes. Every command that serves, calls or',
    'documents tools takes them from "baton": { "tools": "tools/index.ts" } in package.json, or',
    "--tools FILE; where none are named, Baton's example tools.",
    '',
  ].join('\n');
}
