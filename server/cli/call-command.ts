/**
 * `baton call <tool> [--url URL] [--args JSON] [--answers JSON] [--token TOKEN] [--json]`: walks
 * one tool's flow from a terminal. Without `--url` it starts the named tools (tools-module.ts) in
 * this process (on a loopback port, with a throwaway key, as `serve` builds them) so nothing needs to
 * be running; with `--url` it calls a running server. Each round's questions are prompted from
 * their schemas (call-prompts.ts), or taken from `--answers` for scripts and CI. The rounds and a
 * task are walked by the conversation runner the docs and the test kit use (server/simulation),
 * over HTTP (call-client.ts); what it says about a task is call-task.ts. The result goes to
 * stdout; prompts, links, progress and a task's status to stderr. Exit status: 0 for a result,
 * 1 for an error result (`isError`), a protocol error or a failed or cancelled task, 2 for a
 * usage error or a question `--answers` lacks, 130 when the user interrupts a prompt or a task
 * (which is cancelled first).
 */
import { randomBytes } from 'node:crypto';
import { CallClient } from './call-client.js';
import { askObject, askQuestion, type PromptIo } from './call-prompts.js';
import { taskReporter } from './call-task.js';
import { createServer } from '../create-server.js';
import {
  definedFields,
  findHeaderParams,
  KeyRing,
  silentLogger,
  type HeaderParam,
  type InputRequest,
} from '../engine/index.js';
import { pageVisitor } from '../http/index.js';
import { runRounds, type RoundsRun, type RunEnding } from '../simulation/index.js';
import { commandUsage, parseCommandLine, UsageError as CommandLineError } from './command-line.js';
import { CALL_SPEC } from './commands.js';
import { conformanceAsked, servedCatalogue } from './served-catalogue.js';
import { describeSource, findToolsSource } from './tools-module.js';
import type { Fixtures } from '../../machines/conformance/index.js';
import { createMemoryVault, vaultPageRouter, type ExampleToolOptions } from '../../machines/index.js';

export const CALL_USAGE = commandUsage(CALL_SPEC);

class UsageError extends Error {}

export interface CallIo extends PromptIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Whether to prompt; false without a terminal (then --args and --answers must say everything). */
  interactive: boolean;
  /** Subscribes to interrupts (SIGINT), which cancel a running task; answers the unsubscribe. */
  onInterrupt?: (handler: () => void) => () => void;
}

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

/** A scripted answer as an `inputResponses` value (see CALL_USAGE for the short forms). */
export function scriptedResponse(request: InputRequest, value: unknown): unknown {
  if (request.method !== 'elicitation/create') return value;
  if (typeof value === 'string' && ACTIONS.has(value)) return { action: value };
  if (value && typeof value === 'object' && ACTIONS.has((value as { action?: string }).action ?? '')) return value;
  return { action: 'accept', content: value ?? {} };
}

function parseJsonOption(name: string, text: string | undefined): any {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--${name} takes JSON, e.g. --${name} '{"key": "value"}'`);
  }
}

/** The tool as the server lists it (paging through tools/list). */
async function findTool(client: CallClient, name: string): Promise<Record<string, any> | undefined> {
  let cursor: string | undefined;
  do {
    const page = await client.request('tools/list', cursor ? { cursor } : {});
    if (page.error) throw new UsageError(`tools/list failed: ${page.error.message}`);
    const tool = (page.result?.tools ?? []).find((t: { name: string }) => t.name === name);
    if (tool) return tool;
    cursor = page.result?.nextCursor;
  } while (cursor);
  return undefined;
}

function printResult(ending: RunEnding | undefined, json: boolean, io: CallIo): number {
  if (ending && 'error' in ending) {
    io.stderr.write(`baton call: error ${ending.error.code}: ${ending.error.message}\n`);
    return 1;
  }
  const result: Record<string, any> = (ending && 'result' in ending ? ending.result : undefined) ?? {};
  if (json) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return result.isError ? 1 : 0;
  }
  for (const item of result.content ?? []) {
    io.stdout.write(item.type === 'text' ? `${item.text}\n` : `${JSON.stringify(item)}\n`);
  }
  if (result.structuredContent !== undefined && (result.content ?? []).length === 0) {
    io.stdout.write(`${JSON.stringify(result.structuredContent, null, 2)}\n`);
  }
  if (result.isError) io.stderr.write('baton call: the tool answered with an error (isError)\n');
  return result.isError ? 1 : 0;
}

/**
 * Answers one question: from --answers by its key, or prompted. Inside a task a question asked
 * again comes as `approve.2`, `approve.3`, …: --answers gives it under `approve`, by the same
 * rule as a question asked again in a flow (one answer serves the first time; a list, one per time).
 */
function answerer(answers: Record<string, unknown> | undefined, io: CallIo) {
  const asked = new Map<string, number>();
  return async (key: string, request: InputRequest, where: string, signal?: AbortSignal): Promise<unknown> => {
    const question = answers && !(key in answers) ? key.replace(/\.\d+$/, '') : key;
    const times = asked.get(question) ?? 0;
    asked.set(question, times + 1);
    if (!answers) return askQuestion(key, request, { ...io, output: io.stderr, ...(signal ? { signal } : {}) });
    const given = answers[question];
    // One answer serves the first time a question is asked; a question asked again (the
    // answer was refused, or the flow came back to it) needs a list, or it would loop.
    const list = Array.isArray(given) && request.method === 'elicitation/create';
    const value = list ? given[times] : times === 0 ? given : undefined;
    if (value === undefined) {
      throw new UsageError(
        `${where} asks "${key}" (${request.method}${times > 0 ? `, time ${times + 1}` : ''}) and --answers has no answer for it: ${JSON.stringify(request.params ?? {})}`,
      );
    }
    if (request.method === 'elicitation/create' && request.params?.mode === 'url') {
      io.stderr.write(`[${key}] ${request.params.message ?? ''}\n  Open: ${request.params.url}\n`);
    }
    return scriptedResponse(request, value);
  };
}

/** Walks the flow with the conversation runner over HTTP: rounds, and a task to its end. */
async function walk(
  client: CallClient,
  tool: string,
  args: Record<string, unknown>,
  answers: Record<string, unknown> | undefined,
  io: CallIo,
): Promise<RoundsRun> {
  const answer = answerer(answers, io);
  const reporter = taskReporter({ stderr: io.stderr, ...(io.onInterrupt ? { onInterrupt: io.onInterrupt } : {}) });
  try {
    return await runRounds(
      client.send,
      (_question, request, _occurrence, asked) =>
        'taskId' in asked.in
          ? answer(asked.inputKey, request, 'the task', asked.signal)
          : answer(asked.inputKey, request, `round ${asked.in.round}`),
      {
        method: 'tools/call',
        params: { name: tool, arguments: args },
        signal: reporter.signal,
        observer: reporter.observer,
      },
    );
  } finally {
    reporter.close();
  }
}

/** What `baton call` serves in process: the named tools (or the examples), with the fixtures when asked. */
export type CallCatalogue = (examples: ExampleToolOptions) => Fixtures | Promise<Fixtures>;

async function inProcessServer(catalogue: CallCatalogue) {
  const examples = { publicUrl: 'http://127.0.0.1:0', vault: createMemoryVault() };
  // The sealed states never leave this process: a throwaway key is the right one.
  const keyRing = new KeyRing([{ id: 'call', secret: new Uint8Array(randomBytes(32)) }]);
  const served = await catalogue(examples);
  const baton = createServer({
    ...served,
    keyRing,
    logger: silentLogger,
    docs: false,
    routers: [vaultPageRouter(examples.vault, { keyRing, identify: pageVisitor() })],
  });
  const { server, url } = await baton.listen(0, '127.0.0.1');
  // URL questions link to this process's vault page, reachable while the command runs.
  examples.publicUrl = new URL(url).origin;
  return {
    url,
    example: (name: string) => baton.registry.get(name)?.exampleArguments,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function callCommand(argv: string[], io: CallIo = processIo()): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(CALL_SPEC, argv);
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    io.stderr.write(`${error.message}\n\n${CALL_USAGE}`);
    return 2;
  }
  const { values, positional: tool } = parsed;
  if (parsed.help || !tool) {
    (parsed.help ? io.stdout : io.stderr).write(CALL_USAGE);
    return parsed.help ? 0 : 2;
  }
  const source = findToolsSource(values.tools);
  const conformance = conformanceAsked(values.conformance);
  return runCall(
    {
      tool,
      ...definedOptions(values),
      catalogue: (examples) => servedCatalogue(source, examples, conformance),
      served: describeSource(source),
    },
    io,
  );
}

/** One call, as the options give it (`args` and `answers` as JSON text). */
export interface CallRequest {
  tool: string;
  url?: string;
  args?: string;
  answers?: string;
  token?: string;
  json?: boolean;
  /** What to serve in process when there is no `url`. */
  catalogue: CallCatalogue;
  /** How to name what is served in process, in an error (default: "the tools served in process"). */
  served?: string;
}

function definedOptions(values: Record<string, string | boolean | undefined>) {
  const { url, args, answers, token, json } = values as Record<string, string | undefined> & { json?: boolean };
  return definedFields({ url, args, answers, token, json });
}

/** Runs one call; the exit status as CALL_USAGE's header says. */
export async function runCall(call: CallRequest, io: CallIo = processIo()): Promise<number> {
  const { tool } = call;
  const local = call.url ? undefined : await inProcessServer(call.catalogue);
  try {
    const givenArgs = parseJsonOption('args', call.args);
    const answers = parseJsonOption('answers', call.answers);
    if (!io.interactive && answers === undefined) {
      throw new UsageError('no terminal to ask in: pass every answer with --answers (and the arguments with --args)');
    }
    const url = call.url ?? local!.url;
    const token = call.token ?? process.env.BATON_CALL_TOKEN;
    const listing = new CallClient({ url, token });
    const listed = await findTool(listing, tool);
    if (!listed)
      throw new UsageError(`${call.url ?? call.served ?? 'the tools served in process'} has no tool "${tool}"`);
    const headerParams: HeaderParam[] = findHeaderParams(listed.inputSchema).params;
    const client = new CallClient({
      url,
      headerParams,
      token,
      onNotification: (message) => {
        if (message.method !== 'notifications/progress') return;
        const p = message.params ?? {};
        io.stderr.write(
          `  … ${p.message ?? 'progress'} (${p.progress}${p.total !== undefined ? `/${p.total}` : ''})\n`,
        );
      },
    });
    const example = local?.example(tool) ?? {};
    const args =
      givenArgs ??
      (io.interactive && answers === undefined
        ? await askObject(listed.inputSchema, example, { ...io, output: io.stderr })
        : example);
    const run = await walk(client, tool, args, answers, io);
    if (run.outcome === 'interrupted') return 130;
    if (run.ending && 'cancelled' in run.ending) {
      io.stderr.write('baton call: the task was cancelled (tasks/cancel)\n');
      return 1;
    }
    return printResult(run.ending, call.json ?? false, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`baton call: ${error.message}\n`);
      return 2;
    }
    // @inquirer/prompts rejects with ExitPromptError on Ctrl+C.
    if ((error as Error)?.name === 'ExitPromptError') return 130;
    throw error;
  } finally {
    await local?.close();
  }
}

function processIo(): CallIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    input: process.stdin,
    interactive: Boolean(process.stdin.isTTY),
    onInterrupt: (handler) => {
      // While subscribed, Ctrl+C no longer kills the process at once: the task is cancelled first.
      process.on('SIGINT', handler);
      return () => process.off('SIGINT', handler);
    },
  };
}
