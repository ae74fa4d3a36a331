/** The docs index: every documented tool (then prompt, then resource) with a link to its page. */
import type { Block, DocPage, Inline } from './doc-page.js';
import { flowName, flowSlug, flowTitle, sortFlows, type DocumentedFlow, type FlowKind } from './documented-flow.js';
import { machineGraph } from './machine-graph.js';

const SECTIONS: Array<[FlowKind, string]> = [
  ['tool', 'Tools'],
  ['prompt', 'Prompts'],
  ['resource', 'Resources'],
];

/** `form ×2, URL`: the questions a flow can ask, by kind. */
function asks(flow: DocumentedFlow): string {
  const counts = new Map<string, number>();
  for (const node of machineGraph(flow.definition.machine).nodes) {
    // The heading starts with the kind as people write it: form, URL, sampling, roots.
    const kind = node.question?.heading.split(' ')[0];
    if (kind) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  if (counts.size === 0) return 'nothing';
  return [...counts].map(([kind, n]) => (n > 1 ? `${kind} ×${n}` : kind)).join(', ');
}

export function indexPage(flows: DocumentedFlow[]): DocPage {
  const sorted = sortFlows(flows);
  const blocks: Block[] = [
    {
      type: 'paragraph',
      content: [
        'Generated from the machines themselves: each page has the state diagram, a real run of the example and its first round on the wire.',
      ],
    },
  ];
  for (const [kind, heading] of SECTIONS) {
    const members = sorted.filter((f) => f.kind === kind);
    if (members.length === 0) continue;
    const rows: Inline[][][] = members.map((flow) => [
      [{ text: flowName(flow), to: { kind, slug: flowSlug(flow) } }],
      [flowTitle(flow) ?? ''],
      [flow.definition.description ?? ''],
      [asks(flow)],
    ]);
    blocks.push(
      { type: 'heading', text: heading },
      { type: 'table', header: ['name', 'title', 'what it does', 'asks'], rows },
    );
  }
  return {
    ref: { kind: 'index' },
    title: 'Baton docs',
    blocks,
  };
}
