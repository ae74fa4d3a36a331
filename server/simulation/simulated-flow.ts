/**
 * What a simulation runs: a tool, a prompt or a resource, each backed by a machine, its name, and
 * the request that starts its example.
 */
import {
  parseUriTemplate,
  type PromptDefinition,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
  type ToolDefinition,
} from '../engine/index.js';
import { exampleObject } from './example-answers.js';

export type SimulatedFlow =
  | { kind: 'tool'; definition: ToolDefinition }
  | { kind: 'prompt'; definition: PromptDefinition }
  | { kind: 'resource'; definition: ResourceDefinition | ResourceTemplateDefinition };

export type FlowKind = SimulatedFlow['kind'];

/** The name clients use: a tool or prompt name, a resource URI or URI template. */
export function flowName(flow: SimulatedFlow): string {
  if (flow.kind !== 'resource') return flow.definition.name;
  return flow.definition.kind === 'resource' ? flow.definition.uri : flow.definition.uriTemplate;
}

export function flowMethod(flow: SimulatedFlow): 'tools/call' | 'prompts/get' | 'resources/read' {
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
export function exampleParams(flow: SimulatedFlow): Record<string, unknown> {
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
