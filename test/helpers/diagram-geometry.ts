/**
 * What a drawn state diagram looks like to a reader, measured in the browser: which layout drew
 * it, the labels it shows and their rendered font size, labels cut off by the SVG's viewport, and
 * where each start marker sits (inside its composite state, above the state it enters). Used by
 * the docs and Try it browser suites.
 */
import type { Page } from 'playwright-core';
import { machineGraph, StateDiagramWriter, type GraphNode } from '../../server/docs-site/index.js';
import type { AnyStateMachine } from 'xstate';

/** A start marker `[*]` of the diagram: Mermaid names it `<container id>_start` (`root_start` at the top). */
export interface StartMarker {
  /** The Mermaid id of the composite state it sits in, or `root`. */
  container: string;
  /** The Mermaid id of the state it enters. */
  enters: string;
}

export interface DiagramGeometry {
  layout: string | undefined;
  /** Every non-empty label's text (state names, details, edge labels), in document order. */
  labels: string[];
  /** The smallest rendered font size of a label, in CSS pixels. */
  smallestFontPx: number;
  /** Labels whose box reaches outside the SVG's own box (cut off). */
  cutOff: string[];
  /**
   * Start markers outside their composite state's box, or not above the state they enter, and
   * states drawn wholly above the root's start marker.
   */
  misplacedStarts: string[];
}

/** The start markers of a flow's state diagram (a tool's, prompt's, resource's), from the writer that draws it. */
export function startMarkers(flow: { machine: AnyStateMachine }): StartMarker[] {
  const graph = machineGraph(flow.machine);
  const writer = new StateDiagramWriter(graph);
  const rootDrawn = graph.root.type === 'parallel' || graph.root.children.length === 0;
  const markers: StartMarker[] = [];
  if (rootDrawn) markers.push({ container: 'root', enters: writer.nodeId(graph.root) });
  for (const node of graph.nodes) {
    if (node.type !== 'compound' && node !== graph.root) continue;
    if (node === graph.root && rootDrawn) continue;
    const initial = node.initial
      .map((id) => node.children.find((child) => child.stateId === id))
      .filter((child): child is GraphNode => child !== undefined);
    for (const child of initial) {
      markers.push({ container: node === graph.root ? 'root' : writer.nodeId(node), enters: writer.nodeId(child) });
    }
  }
  return markers;
}

/** Measures the diagram drawn in `selector` (a `.diagram` or `.try-it-diagram` box). */
export function measureDiagram(page: Page, selector: string, starts: StartMarker[]): Promise<DiagramGeometry> {
  return page.$eval(
    selector,
    (box, markers) => {
      const svg = box.querySelector('svg')!;
      const frame = svg.getBoundingClientRect();
      // CSS pixels per SVG unit: the scale the diagram is shown at.
      const ratio = frame.width / svg.viewBox.baseVal.width;
      const labels: string[] = [];
      const cutOff: string[] = [];
      let smallestFontPx = Infinity;
      const parts = svg.querySelectorAll('foreignObject span.nodeLabel, foreignObject span.edgeLabel, text');
      for (const part of Array.from(parts)) {
        const text = (part.textContent ?? '').trim();
        const rect = part.getBoundingClientRect();
        if (text === '' || rect.width === 0) continue;
        labels.push(text);
        smallestFontPx = Math.min(smallestFontPx, parseFloat(getComputedStyle(part).fontSize) * ratio);
        const inside =
          rect.left >= frame.left - 1 &&
          rect.right <= frame.right + 1 &&
          rect.top >= frame.top - 1 &&
          rect.bottom <= frame.bottom + 1;
        if (!inside) cutOff.push(text);
      }
      // Mermaid names a state's group `<svg id>-state-<id>-<n>`, a start marker's id `<container>_start`.
      // (No named helpers in here: the test runner's transpiler would wrap them in a `__name` the page lacks.)
      const boxes = new Map<string, DOMRect>();
      for (const g of Array.from(svg.querySelectorAll('g[id]'))) {
        const id = /-state-(.+)-\d+$/.exec(g.id)?.[1];
        if (id !== undefined && !boxes.has(id)) boxes.set(id, g.getBoundingClientRect());
      }
      const misplacedStarts: string[] = [];
      for (const marker of markers) {
        const start = boxes.get(`${marker.container}_start`);
        const target = boxes.get(marker.enters);
        if (!start || !target) {
          misplacedStarts.push(`${marker.container}: not drawn`);
          continue;
        }
        if (start.bottom > target.top + 1) misplacedStarts.push(`${marker.container}: not above ${marker.enters}`);
        const container = marker.container === 'root' ? frame : boxes.get(marker.container);
        const within =
          container !== undefined &&
          start.left >= container.left &&
          start.right <= container.right &&
          start.top >= container.top &&
          start.bottom <= container.bottom;
        if (!within) misplacedStarts.push(`${marker.container}: outside its state`);
        // The flow starts at the top: no state lies wholly above the root's start marker.
        if (marker.container !== 'root') continue;
        for (const [id, other] of boxes) {
          if (other.bottom < start.top - 1) misplacedStarts.push(`root: ${id} above the start`);
        }
      }
      return {
        layout: (box as HTMLElement).dataset.layout,
        labels,
        smallestFontPx,
        cutOff,
        misplacedStarts,
      };
    },
    starts,
  );
}
