/**
 * What the docs can describe: a tool, a prompt or a resource, each backed by a machine. This
 * names each one, gives it a page slug, and builds the request that starts its example.
 */
import {
  parseUriTemplate,
  type PromptDefinition,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
  type ToolDefinition,
} from '../engine/index.js';
import { exampleObject } from './example-answers.js';

export type DocumentedFlow =
  | { kind: 'tool'; definition: ToolDefinition }
  | { kind: 'prompt'; definition: PromptDefinition }
  | { kind: 'resource'; definition: ResourceDefinition | ResourceTemplateDefinition };

export type FlowKind = DocumentedFlow['kind'];

/** The name clients use: a tool or prompt name, a resource URI or URI template. */
export function flowName(flow: DocumentedFlow): string {
  if (flow.kind !== 'resource') return flow.definition.name;
  return flow.definition.kind === 'resource' ? flow.definition.uri : flow.definition.uriTemplate;
}

/** A URL path segment for the flow's page: names as they are, URIs percent-encoded. */
export function flowSlug(flow: DocumentedFlow): string {
  return encodeURIComponent(flowName(flow));
}

export function flowTitle(flow: DocumentedFlow): string | undefined {
  if (flow.kind === 'tool') return flow.definition.title ?? flow.definition.annotations?.title;
  return flow.definition.title ?? (flow.kind === 'resource' ? flow.definition.name : undefined);
}

export function flowMethod(flow: DocumentedFlow): 'tools/call' | 'prompts/get' | 'resources/read' {
  return flow.kind === 'tool' ? 'tools/call' : flow.kind === 'prompt' ? 'prompts/get' : 'resources/read';
}

/** A URI a template matches: each variable from its first completion value, else `example`. */
export function exampleUri(definition: ResourceTemplateDefinition): string {
  const { variables } = parseUriTemplate(definition.uriTemplate);
  let uri = definition.uriTemplate;
  for (const variable of variables) {
    const completions = definition.completions?.[variable];
    const value = Array.isArray(completions) && completions.length > 0 ? completions[0]! : 'example';
    uri = uri.replace(`{${variable}}`, encodeURIComponent(value));
  }
  return uri;
}

/** Each required argument from its first completion value, else `example`. */
function promptArguments(definition: PromptDefinition): Record<string, string> {
  const entries = (definition.arguments ?? [])
    .filter((argument) => argument.required)
    .map((argument) => {
      const values = Array.isArray(argument.completions) ? argument.completions : [];
      return [argument.name, values[0] ?? 'example'] as const;
    });
  return Object.fromEntries(entries);
}

/** The params of the first request of the flow's example (without `_meta`). */
export function exampleParams(flow: DocumentedFlow): Record<string, unknown> {
  switch (flow.kind) {
    case 'tool':
      return {
        name: flow.definition.name,
        arguments: flow.definition.exampleArguments ?? exampleObject(flow.definition.inputSchema),
      };
    case 'prompt':
      return {
        name: flow.definition.name,
        arguments: flow.definition.exampleArguments ?? promptArguments(flow.definition),
      };
    case 'resource':
      return {
        uri: flow.definition.kind === 'resource' ? flow.definition.uri : exampleUri(flow.definition),
      };
  }
}

export function sortFlows(flows: DocumentedFlow[]): DocumentedFlow[] {
  const order: Record<FlowKind, number> = { tool: 0, prompt: 1, resource: 2 };
  return [...flows].sort(
    (a, b) => order[a.kind] - order[b.kind] || (flowName(a) < flowName(b) ? -1 : flowName(a) > flowName(b) ? 1 : 0),
  );
}
