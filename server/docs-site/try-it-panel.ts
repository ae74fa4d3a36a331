/**
 * The "Try it" panel of a tool's page at `GET /docs/tools/<tool>`: the HTML the browser script
 * (server/http/assets/try-it.js) turns into a live client of the server's own `POST /mcp`. The
 * page carries what the script needs as a JSON data block (never executed, so the strict CSP
 * holds): the input schema and example arguments, the state diagram, and which drawn state asks
 * which question key. The page learns what a round waits for from the question keys the server
 * sends in the clear, never from the sealed `requestState`.
 */
import { findHeaderParams, type ToolDefinition } from '../engine/index.js';
import { exampleParams } from './documented-flow.js';
import { escapeHtml } from './html-renderer.js';
import { machineGraph } from './machine-graph.js';
import { StateDiagramWriter } from './state-diagram.js';

/**
 * How the panel treats the server's auth hook: `open` (no hook), `token` (the operator let the
 * panel send a bearer token the reader types in), `withheld` (a hook is set and the panel sends
 * no credentials at all).
 */
export type TryItAuth = 'open' | 'token' | 'withheld';

export interface TryItOptions {
  /** The MCP endpoint's path (`/mcp`). */
  endpoint: string;
  auth: TryItAuth;
}

export interface TryItData {
  tool: string;
  inputSchema: Record<string, unknown>;
  exampleArguments: Record<string, unknown>;
  /** `x-mcp-header` parameters: their `Mcp-Param-*` header name and where the value sits in the arguments. */
  headerParams: Array<{ name: string; path: string[] }>;
  endpoint: string;
  auth: TryItAuth;
  diagram: string;
  /** Question key -> the Mermaid ids of the states that ask it. */
  waitingStates: Record<string, string[]>;
  /** Whether the tool may run as a task: then the panel declares the tasks extension and follows tasks. */
  task?: 'optional' | 'required';
}

export function tryItData(tool: ToolDefinition, options: TryItOptions): TryItData {
  const graph = machineGraph(tool.machine);
  const writer = new StateDiagramWriter(graph);
  const waitingStates: Record<string, string[]> = {};
  for (const node of graph.nodes) {
    if (!node.question) continue;
    (waitingStates[node.question.key] ??= []).push(writer.nodeId(node));
  }
  return {
    tool: tool.name,
    inputSchema: tool.inputSchema as Record<string, unknown>,
    exampleArguments: exampleParams({ kind: 'tool', definition: tool }).arguments as Record<string, unknown>,
    headerParams: findHeaderParams(tool.inputSchema).params.map(({ name, path }) => ({ name, path })),
    endpoint: options.endpoint,
    auth: options.auth,
    diagram: writer.write(),
    waitingStates,
    ...(tool.task ? { task: tool.task } : {}),
  };
}

/** JSON that is safe inside a `<script type="application/json">` element (no `</script>`, no `<!--`). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The panel's HTML; the script fills it in. Without JavaScript it says so. */
export function renderTryItPanel(data: TryItData): string {
  const token =
    data.auth === 'token'
      ? `<label class="try-it-token">Bearer token <input type="password" name="token" autocomplete="off" placeholder="sent as Authorization: Bearer …"></label>`
      : data.auth === 'withheld'
        ? `<p class="try-it-note">This server checks a token on <code>${escapeHtml(data.endpoint)}</code>, and its operator has not let this page send one (<code>tryItSendsToken</code>), so calls from here are refused.</p>`
        : '';
  return `<section class="try-it" id="try-it" aria-label="Try it">
<h2>Try it</h2>
<p>Call <code>${escapeHtml(data.tool)}</code> on this server (<code>POST ${escapeHtml(data.endpoint)}</code>) and answer its questions as a user would; the states now waiting are highlighted in the diagram. This runs the real tool.${data.task ? ` It runs as a task${data.task === 'optional' ? ' when its work starts' : ''}: the panel polls <code>tasks/get</code>, answers with <code>tasks/update</code>, and can cancel it.` : ''}</p>
${token}
<div class="try-it-layout">
<div class="try-it-panel" data-phase="loading"><noscript>The panel needs JavaScript.</noscript></div>
<div class="try-it-diagram" data-rendered="pending"><pre class="mermaid-source">${escapeHtml(data.diagram)}</pre></div>
</div>
<script type="application/json" id="try-it-data">${scriptJson(data)}</script>
</section>`;
}
