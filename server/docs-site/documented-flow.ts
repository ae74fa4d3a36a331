/**
 * What the docs describe: a tool, a prompt or a resource, each backed by a machine (the flows the
 * simulation runs). This gives each one a page slug, a title and a place in the index.
 */
import { flowName, type FlowKind, type SimulatedFlow } from '../simulation/index.js';

export { exampleParams, exampleUri, flowMethod, flowName, type FlowKind } from '../simulation/index.js';

export type DocumentedFlow = SimulatedFlow;

/** A URL path segment for the flow's page: names as they are, URIs percent-encoded. */
export function flowSlug(flow: DocumentedFlow): string {
  return encodeURIComponent(flowName(flow));
}

export function flowTitle(flow: DocumentedFlow): string | undefined {
  if (flow.kind === 'tool') return flow.definition.title ?? flow.definition.annotations?.title;
  return flow.definition.title ?? (flow.kind === 'resource' ? flow.definition.name : undefined);
}

export function sortFlows(flows: DocumentedFlow[]): DocumentedFlow[] {
  const order: Record<FlowKind, number> = { tool: 0, prompt: 1, resource: 2 };
  return [...flows].sort(
    (a, b) => order[a.kind] - order[b.kind] || (flowName(a) < flowName(b) ? -1 : flowName(a) > flowName(b) ? 1 : 0),
  );
}
