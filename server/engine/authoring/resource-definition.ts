/**
 * `defineResource` and `defineResourceTemplate`: resources whose contents come from a machine.
 * The machine's input is `{ uri, ...templateVariables }`; it may ask questions (MRTR on
 * resources/read) like a tool.
 */
import type { AnyStateMachine } from 'xstate';
import type { FlowOptions } from './flow-definition.js';
import type { Completions } from './prompt-definition.js';

interface ResourceCommon<TMachine extends AnyStateMachine> extends FlowOptions {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  machine: TMachine;
}

export interface ResourceDefinition<
  TMachine extends AnyStateMachine = AnyStateMachine,
> extends ResourceCommon<TMachine> {
  kind: 'resource';
  uri: string;
  size?: number;
}

export interface ResourceTemplateDefinition<
  TMachine extends AnyStateMachine = AnyStateMachine,
> extends ResourceCommon<TMachine> {
  kind: 'template';
  /** RFC 6570 level 1, e.g. `test://template/{id}/data`. */
  uriTemplate: string;
  /** Completion values per template variable (completion/complete with ref/resource). */
  completions?: Record<string, Completions>;
}

export function defineResource(spec: Omit<ResourceDefinition, 'kind'>): ResourceDefinition {
  return Object.freeze({ ...spec, kind: 'resource' as const });
}

export function defineResourceTemplate(spec: Omit<ResourceTemplateDefinition, 'kind'>): ResourceTemplateDefinition {
  return Object.freeze({ ...spec, kind: 'template' as const });
}
