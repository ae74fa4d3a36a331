/**
 * Any XState v5 machine as a Mermaid `stateDiagram-v2`. Input states are styled (`classDef input`)
 * and list what they ask; answer edges read accept / decline / cancel; guards appear by name in
 * brackets; invoked actors are listed on their state; parallel regions are split by `--`;
 * history states show as H or H*. The same machine always gives the same text.
 *
 * The text opens with Mermaid frontmatter asking for the ELK layout (`@mermaid-js/layout-elk`, which
 * the docs pages register): a layered layout that keeps a composite's start marker inside its box
 * and orders states to avoid crossings, where Mermaid's default (dagre) puts the root's start
 * marker outside the chart. A renderer without ELK (GitHub, an older Mermaid) ignores the key and
 * draws with its default layout, so the same text works everywhere.
 *
 * Mermaid's layout needs each edge declared in the block of the states' lowest common ancestor,
 * and cannot draw an edge from a composite state into its own inside; such transitions (and a
 * machine's root-level `on`) start from a dashed "any state" node inside that composite.
 */
import type { AnyStateMachine } from 'xstate';
import { keyPath, machineGraph, type GraphEdge, type GraphNode, type MachineGraph } from './machine-graph.js';
import { mermaidLabel, MermaidIds } from './mermaid-text.js';

/**
 * Mermaid frontmatter for every state diagram: the ELK layout. Its tuning (cycle breaking that
 * follows the flow from the initial state) is site configuration on the docs pages
 * (diagram-view.js), since Mermaid takes only some `elk` keys from a diagram's frontmatter.
 */
export const STATE_DIAGRAM_FRONTMATTER = ['---', 'config:', '  layout: elk', '---'];

const CLASS_DEFS: Record<string, string> = {
  input: 'fill:#fff4d6,stroke:#e8590c,stroke-width:2px,color:#000',
  invoking: 'fill:#e7f5ff,stroke:#1c7ed6,color:#000',
  history: 'fill:#f1f3f5,stroke:#495057,color:#000',
  anyState: 'fill:#ffffff,stroke:#868e96,stroke-dasharray:4 3,color:#495057',
};

interface Drawn {
  /** Mermaid id of a node, or of the "any state" node inside a composite. */
  id: string;
  /** The node whose block the drawn node sits in (undefined: the top level). */
  container: GraphNode | undefined;
}

function isComposite(node: GraphNode): boolean {
  return node.type === 'compound' || node.type === 'parallel';
}

function contains(ancestor: GraphNode, node: GraphNode): boolean {
  for (let current: GraphNode | undefined = node; current; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}

export class StateDiagramWriter {
  readonly #graph: MachineGraph;
  readonly #ids = new MermaidIds();
  readonly #anyNodes = new Map<GraphNode, string>();
  /** Edge lines per block (the composite node, or the root for the top level). */
  readonly #edgesByBlock = new Map<GraphNode, string[]>();
  readonly #classes = new Map<string, string[]>();
  readonly #rootDrawn: boolean;

  constructor(graph: MachineGraph) {
    this.#graph = graph;
    // A parallel root needs a box of its own so its regions can be split by `--`; a machine
    // without states is drawn as its one state.
    this.#rootDrawn = graph.root.type === 'parallel' || graph.root.children.length === 0;
    for (const node of graph.nodes) if (node !== graph.root || this.#rootDrawn) this.#idOf(node);
    this.#placeEdges();
  }

  write(): string {
    const lines = [...STATE_DIAGRAM_FRONTMATTER, 'stateDiagram-v2'];
    const root = this.#graph.root;
    if (this.#rootDrawn) {
      this.#writeNode(root, lines, 1);
      lines.push(`  [*] --> ${this.#idOf(root)}`, ...this.#indent(this.#edgesByBlock.get(root) ?? [], 1));
    } else {
      this.#writeBlockContents(root, lines, 1);
    }
    for (const [name, style] of Object.entries(CLASS_DEFS)) {
      const members = this.#classes.get(name);
      if (!members?.length) continue;
      lines.push(`  classDef ${name} ${style}`);
      lines.push(`  class ${members.join(',')} ${name}`);
    }
    return `${lines.join('\n')}\n`;
  }

  /** The Mermaid id a state is drawn under (Mermaid names its SVG group after it). */
  nodeId(node: GraphNode): string {
    return this.#idOf(node);
  }

  #idOf(node: GraphNode): string {
    return this.#ids.id(keyPath(node) || 'root');
  }

  #indent(lines: string[], depth: number): string[] {
    return lines.map((line) => `${'  '.repeat(depth)}${line}`);
  }

  #classify(name: string, id: string) {
    const members = this.#classes.get(name) ?? [];
    members.push(id);
    this.#classes.set(name, members);
  }

  /** The dashed "any state" node inside `owner`, created on first use. */
  #anyNode(owner: GraphNode): string {
    let id = this.#anyNodes.get(owner);
    if (!id) {
      id = this.#ids.id(keyPath(owner) || 'state', 'any');
      this.#anyNodes.set(owner, id);
      this.#classify('anyState', id);
    }
    return id;
  }

  #drawnSource(edge: GraphEdge, target: GraphNode | undefined): Drawn {
    const { source } = edge;
    const inward = target === undefined || contains(source, target);
    if ((source === this.#graph.root && !this.#rootDrawn) || (isComposite(source) && inward)) {
      return { id: this.#anyNode(source), container: source };
    }
    return { id: this.#idOf(source), container: source.parent };
  }

  #drawnTarget(target: GraphNode): GraphNode[] {
    // The root itself is not a box (unless parallel): entering it means entering its initial states.
    if (target !== this.#graph.root || this.#rootDrawn) return [target];
    return target.initial.map((id) => this.#graph.nodes.find((n) => n.stateId === id)!);
  }

  /** The block an edge is declared in: the innermost composite holding both ends, never a parallel one. */
  #blockFor(container: GraphNode | undefined, target: GraphNode): GraphNode {
    let block = container ?? this.#graph.root;
    while (block !== this.#graph.root && (block === target || !contains(block, target))) block = block.parent!;
    while (block.type === 'parallel' && block.parent) block = block.parent;
    return block;
  }

  /**
   * Edges between the same two states under the same guard are merged (`decline / cancel`): one
   * arrow per outcome would double most input states' edges without saying more.
   */
  #placeEdges() {
    const merged = new Map<
      string,
      { block: GraphNode; from: string; to: string; guard?: string; triggers: string[] }
    >();
    for (const edge of this.#graph.edges) {
      const targets = edge.targets.length === 0 ? [undefined] : edge.targets.flatMap((t) => this.#drawnTarget(t));
      for (const target of targets) {
        const from = this.#drawnSource(edge, target);
        // No target: the machine stays where it is; drawn as a loop.
        const to = target ? this.#idOf(target) : from.id;
        const block = target ? this.#blockFor(from.container, target) : (from.container ?? this.#graph.root);
        const key = `${from.id}\u0000${to}\u0000${edge.guard ?? ''}`;
        const entry = merged.get(key);
        if (!entry) {
          merged.set(key, {
            block,
            from: from.id,
            to,
            ...(edge.guard ? { guard: edge.guard } : {}),
            triggers: [edge.trigger],
          });
        } else if (!entry.triggers.includes(edge.trigger)) {
          entry.triggers.push(edge.trigger);
        }
      }
    }
    for (const { block, from, to, guard, triggers } of merged.values()) {
      const label = mermaidLabel(guard ? `${triggers.join(' / ')} [${guard}]` : triggers.join(' / '));
      const list = this.#edgesByBlock.get(block) ?? [];
      list.push(`${from} --> ${to} : ${label}`);
      this.#edgesByBlock.set(block, list);
    }
  }

  #writeNode(node: GraphNode, lines: string[], depth: number) {
    const id = this.#idOf(node);
    const name =
      node.type === 'history'
        ? node.history === 'deep'
          ? 'H*'
          : 'H'
        : node === this.#graph.root
          ? this.#graph.id
          : node.key;
    const details = this.#details(node);
    if (!isComposite(node)) {
      lines.push(...this.#indent([`state "${mermaidLabel(name, undefined, 'name')}" as ${id}`], depth));
      lines.push(
        ...this.#indent(
          details.map((d) => `${id} : ${mermaidLabel(d)}`),
          depth,
        ),
      );
    } else {
      lines.push(...this.#indent([`state "${mermaidLabel(name, undefined, 'name')}" as ${id} {`], depth));
      this.#writeBlockContents(node, lines, depth + 1);
      lines.push(...this.#indent(['}'], depth));
      // A composite box has no room for lines of text; what it asks or invokes goes in a note.
      if (details.length > 0) {
        lines.push(...this.#indent([`note right of ${id} : ${mermaidLabel(details.join(', '), 120, 'note')}`], depth));
      }
    }
    if (node.question) this.#classify('input', id);
    else if (node.type === 'history') this.#classify('history', id);
    else if (node.invokes.length > 0 && !isComposite(node)) this.#classify('invoking', id);
  }

  #details(node: GraphNode): string[] {
    const details: string[] = [];
    if (node.question) {
      details.push(node.question.heading);
      if (node.question.text !== undefined) details.push(`“${node.question.text}”`);
      details.push(...node.question.fields);
    }
    if (node.singleUse) details.push('single use');
    for (const name of node.invokes) details.push(`invoke: ${name}`);
    if (node.description) details.push(node.description);
    return details;
  }

  #writeBlockContents(node: GraphNode, lines: string[], depth: number) {
    const children = node.children;
    if (node.type === 'parallel') {
      children.forEach((child, i) => {
        if (i > 0) lines.push(...this.#indent(['--'], depth));
        this.#writeNode(child, lines, depth);
      });
    } else {
      for (const child of children) this.#writeNode(child, lines, depth);
    }
    const anyId = this.#anyNodes.get(node);
    // In a parallel state the "any state" node gets a region of its own, beside the real ones.
    if (anyId && node.type === 'parallel') lines.push(...this.#indent(['--'], depth));
    if (anyId) lines.push(...this.#indent([`state "any state" as ${anyId}`], depth));
    const initial = node.initial.map((id) => children.find((c) => c.stateId === id)).filter((c) => c !== undefined);
    for (const child of initial) lines.push(...this.#indent([`[*] --> ${this.#idOf(child)}`], depth));
    if (node !== this.#graph.root || !this.#rootDrawn) {
      lines.push(...this.#indent(this.#edgesByBlock.get(node) ?? [], depth));
    }
    for (const child of children) {
      if (child.type === 'final') lines.push(...this.#indent([`${this.#idOf(child)} --> [*]`], depth));
    }
  }
}

/** The machine as Mermaid `stateDiagram-v2` source (ends with a newline). */
export function toStateDiagram(machine: AnyStateMachine): string {
  return new StateDiagramWriter(machineGraph(machine)).write();
}
