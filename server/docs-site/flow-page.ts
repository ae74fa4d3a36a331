/**
 * One tool's (or prompt's, or resource's) page: what it does, its input, its state diagram and
 * questions, the conversation of a real run with canned answers, the first round as it goes over
 * the wire, and how declining or cancelling each question ends.
 */
import type { AnyStateMachine } from 'xstate';
import { taskStartStates, type InputRequest, type ToolDefinition } from '../engine/index.js';
import { answersFirst, defaultAnswers } from '../simulation/index.js';
import { runConversation, type Conversation } from './conversation.js';
import { code, type Block, type DocPage, type Inline } from './doc-page.js';
import { flowName, flowSlug, flowTitle, type DocumentedFlow } from './documented-flow.js';
import { keyPath, machineGraph, type GraphEdge, type MachineGraph } from './machine-graph.js';
import { describeSchemaType } from './question-summary.js';
import { catalogueFieldBlocks } from './catalogue-field-blocks.js';
import { summarizeResponse } from './result-summary.js';
import { toSequenceDiagram } from './sequence-diagram.js';
import { StateDiagramWriter } from './state-diagram.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

function hints(flow: DocumentedFlow): Block[] {
  if (flow.kind !== 'tool') return [];
  const a = flow.definition.annotations ?? {};
  const words = [
    a.readOnlyHint === undefined ? undefined : a.readOnlyHint ? 'read-only' : 'writes',
    a.destructiveHint === undefined ? undefined : a.destructiveHint ? 'destructive' : 'not destructive',
    a.idempotentHint === undefined ? undefined : a.idempotentHint ? 'idempotent' : 'not idempotent',
    a.openWorldHint === undefined ? undefined : a.openWorldHint ? 'open world' : 'closed world',
  ].filter((w): w is string => w !== undefined);
  const blocks: Block[] = words.length > 0 ? [{ type: 'paragraph', content: [`Hints: ${words.join(', ')}.`] }] : [];
  if (flow.definition.singleUse) {
    blocks.push({ type: 'paragraph', content: ['Single use: every sealed state of this tool is accepted once only.'] });
  }
  return blocks;
}

function inputBlocks(flow: DocumentedFlow, firstParams: Record<string, unknown>): Block[] {
  if (flow.kind === 'resource') {
    const d = flow.definition;
    const where = d.kind === 'resource' ? ['URI ', code(d.uri)] : ['URI template ', code(d.uriTemplate)];
    return [
      { type: 'heading', text: 'Input' },
      { type: 'paragraph', content: [...where, d.mimeType ? `, ${d.mimeType}.` : '.'] },
    ];
  }
  const rows: Inline[][][] =
    flow.kind === 'tool'
      ? Object.entries((flow.definition.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>).map(
          ([name, schema]) => [
            [code(name)],
            [describeSchemaType(schema)],
            [((flow.definition.inputSchema.required ?? []) as string[]).includes(name) ? 'yes' : 'no'],
            [typeof schema.description === 'string' ? schema.description : ''],
          ],
        )
      : (flow.definition.arguments ?? []).map((argument) => [
          [code(argument.name)],
          ['string'],
          [argument.required ? 'yes' : 'no'],
          [argument.description ?? ''],
        ]);
  const args = firstParams.arguments ?? {};
  return [
    { type: 'heading', text: 'Input' },
    rows.length > 0
      ? { type: 'table', header: ['argument', 'type', 'required', 'description'], rows }
      : { type: 'paragraph', content: ['No arguments.'] },
    { type: 'paragraph', content: ['Example arguments: ', code(JSON.stringify(args))] },
  ];
}

function outcomes(graph: MachineGraph, key: string): Inline[] {
  const byOutcome = new Map<string, Inline[]>();
  for (const edge of graph.edges.filter((e: GraphEdge) => e.answer?.key === key)) {
    const list = byOutcome.get(edge.answer!.outcome) ?? [];
    const targets = edge.targets.length > 0 ? edge.targets.map((t) => keyPath(t) || graph.id) : ['(stays)'];
    for (const target of targets) {
      if (list.length > 0) list.push(', ');
      list.push(code(target));
      if (edge.guard) list.push(edge.guard === 'else' ? ' otherwise' : ` if ${edge.guard}`);
    }
    byOutcome.set(edge.answer!.outcome, list);
  }
  const parts: Inline[] = [];
  for (const [outcome, targets] of byOutcome) {
    if (parts.length > 0) parts.push('; ');
    parts.push(`${outcome} → `, ...targets);
  }
  return parts;
}

/** The message a question was first asked with in the example, for questions computed from context. */
function askedInExample(conversation: Conversation, key: string): string | undefined {
  for (const round of conversation.rounds) {
    const requests = ('result' in round.response ? round.response.result.inputRequests : undefined) as
      Record<string, InputRequest> | undefined;
    const message = requests?.[key]?.params?.message;
    if (typeof message === 'string') return message;
  }
  return undefined;
}

function stateBlocks(machine: AnyStateMachine, conversation: Conversation): Block[] {
  const graph = machineGraph(machine);
  const inputs = graph.nodes.filter((n) => n.question);
  const blocks: Block[] = [
    { type: 'heading', text: 'States' },
    { type: 'diagram', kind: 'state', source: new StateDiagramWriter(graph).write() },
    {
      type: 'paragraph',
      content: [
        'Orange states wait for an answer; blue states run invoked work. Edges name the answer (accept, decline, cancel, result), the guard in brackets, ',
        code('done:'),
        '/',
        code('error:'),
        ' for invoked actors, ',
        code('after'),
        ' for timers and ',
        code('always'),
        ' for eventless transitions.',
      ],
    },
  ];
  if (inputs.length === 0) return blocks;
  const rows = inputs.map((node) => {
    const q = node.question!;
    const example = askedInExample(conversation, q.key);
    const asks = q.text ?? (example ? `${example} (in the example)` : '(depends on the context)');
    const fields = q.fields.length > 0 ? ` — ${q.fields.join('; ')}` : '';
    const once = node.singleUse ? ' (single use: a resent answer never runs its effect twice)' : '';
    return [[code(q.key)], [q.kind], [code(keyPath(node))], [`${asks}${fields}${once}`], outcomes(graph, q.key)];
  });
  blocks.push({ type: 'table', header: ['key', 'kind', 'state', 'asks', 'answers lead to'], rows });
  return blocks;
}

function answerInline(answer: unknown): string {
  const a = answer as { action?: string; content?: unknown } | undefined;
  if (a?.action) return a.content === undefined ? a.action : `${a.action} ${JSON.stringify(a.content)}`;
  return JSON.stringify(answer);
}

/** Where a tool that may run as a task becomes one (docs/tasks.md, "Where the task starts"). */
function taskBlocks(tool: ToolDefinition): Block[] {
  if (tool.task === undefined) return [];
  const starts = taskStartStates(tool.machine);
  const who =
    tool.task === 'required'
      ? 'Runs only as a task: a client must declare the tasks extension (else -32021).'
      : 'Runs as a task for a client that declares the tasks extension, synchronously for any other.';
  return [
    { type: 'heading', text: 'As a task' },
    {
      type: 'paragraph',
      content: [
        `${who} The task starts at the first of these states the machine reaches (work, a timer, or a `,
        code('startsTask'),
        ' tag): ',
        ...starts.flatMap((path, i) => [...(i > 0 ? [', '] : []), code(path)]),
        '. Questions asked before it are answered synchronously; inside the task they are answered with ',
        code('tasks/update'),
        ', and its timers are durable.',
      ],
    },
  ];
}

function conversationBlocks(conversation: Conversation, heading = 'Conversation'): Block[] {
  const rows = conversation.rounds.map((round, i) => {
    const answers = Object.entries(round.answers).map(([key, answer]) => `${key}: ${answerInline(answer)}`);
    const sends =
      i === 0
        ? `${round.request.method} ${String(round.request.params.name ?? round.request.params.uri)}${
            round.request.params.arguments ? ` ${JSON.stringify(round.request.params.arguments)}` : ''
          }`
        : round.request.method.startsWith('tasks/')
          ? `${round.request.method}${round.request.params.inputResponses ? ' + inputResponses' : ''}`
          : `the same call + inputResponses + requestState`;
    return [[String(i + 1)], [code(sends)], [summarizeResponse(round.response)], [answers.join('; ') || '—']];
  });
  const ending =
    conversation.outcome === 'unfinished'
      ? [{ type: 'paragraph', content: ['The example was still asking when it was stopped.'] } as Block]
      : [];
  return [
    { type: 'heading', text: heading },
    {
      type: 'paragraph',
      content: [
        heading === 'Conversation'
          ? 'A real run of the example through the engine, answering every question as a cooperative user would.'
          : "A real run through the engine with this example's arguments and answers.",
      ],
    },
    { type: 'diagram', kind: 'sequence', source: toSequenceDiagram(conversation) },
    { type: 'table', header: ['round', 'client sends', 'Baton answers', 'then the user answers'], rows },
    ...ending,
  ];
}

function wireBlocks(conversation: Conversation): Block[] {
  const first = conversation.rounds[0]!;
  return [
    { type: 'heading', text: 'First round on the wire' },
    { type: 'paragraph', content: ['The request (HTTP POST to the MCP endpoint, or one stdio line):'] },
    { type: 'code', language: 'json', source: json(first.request) },
    { type: 'paragraph', content: ['The response (requestState shortened; it is sealed and opaque to the client):'] },
    { type: 'code', language: 'json', source: json(first.response) },
  ];
}

async function declineBlocks(flow: DocumentedFlow, happy: Conversation): Promise<Block[]> {
  const declinable: string[] = [];
  for (const round of happy.rounds) {
    const requests = ('result' in round.response ? round.response.result.inputRequests : undefined) ?? {};
    for (const [key, request] of Object.entries(requests as Record<string, InputRequest>)) {
      if (request.method === 'elicitation/create' && !declinable.includes(key)) declinable.push(key);
    }
  }
  const heading: Block = { type: 'heading', text: 'Declining and cancelling' };
  if (declinable.length === 0) {
    return [heading, { type: 'paragraph', content: ['This example asks nothing the user could decline.'] }];
  }
  // The example's answers up to the question, then the decline or cancel the first time it is asked.
  const ending = async (key: string, action: 'decline' | 'cancel') => {
    const run = await runConversation(flow, { answer: answersFirst({ [key]: [{ action }] }, defaultAnswers(flow)) });
    const last = run.rounds[run.rounds.length - 1]!;
    return `${summarizeResponse(last.response)} (round ${run.rounds.length})`;
  };
  const rows: Inline[][][] = [];
  for (const key of declinable) {
    const declined = await ending(key, 'decline');
    const cancelled = await ending(key, 'cancel');
    rows.push([[code(key)], [declined], [cancelled === declined ? 'the same' : cancelled]]);
  }
  return [
    heading,
    {
      type: 'paragraph',
      content: ['Each question answered with decline, or cancel, the first time it is asked (other answers as above):'],
    },
    { type: 'table', header: ['question', 'decline ends with', 'cancel ends with'], rows },
  ];
}

/** The tool's further example runs (`examples`), each as its own conversation. */
async function exampleBlocks(flow: DocumentedFlow): Promise<Block[]> {
  if (flow.kind !== 'tool') return [];
  const blocks: Block[] = [];
  for (const example of flow.definition.examples ?? []) {
    const definition = {
      ...flow.definition,
      ...(example.arguments ? { exampleArguments: example.arguments } : {}),
      ...(example.answers ? { exampleAnswers: example.answers } : {}),
    };
    const conversation = await runConversation({ kind: 'tool', definition });
    blocks.push(...conversationBlocks(conversation, `Example: ${example.title}`));
  }
  return blocks;
}

export async function flowPage(flow: DocumentedFlow): Promise<DocPage> {
  const conversation = await runConversation(flow);
  const title = flowTitle(flow);
  const description = flow.definition.description;
  return {
    ref: { kind: flow.kind, slug: flowSlug(flow) },
    title: flowName(flow),
    ...(flow.definition.icons ? { icons: flow.definition.icons } : {}),
    blocks: [
      ...(title ? [{ type: 'paragraph', content: [title] } as Block] : []),
      ...(description ? [{ type: 'paragraph', content: [description] } as Block] : []),
      ...hints(flow),
      ...catalogueFieldBlocks(flow),
      ...inputBlocks(flow, conversation.rounds[0]!.request.params),
      ...stateBlocks(flow.definition.machine, conversation),
      ...(flow.kind === 'tool' ? taskBlocks(flow.definition) : []),
      ...conversationBlocks(conversation),
      ...(await exampleBlocks(flow)),
      ...wireBlocks(conversation),
      ...(await declineBlocks(flow, conversation)),
    ],
  };
}
