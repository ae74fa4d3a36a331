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

/** A resource at one fixed URI, as `defineResource` returns it (`createServer({ resources })`). */
export interface ResourceDefinition<
  TMachine extends AnyStateMachine = AnyStateMachine,
> extends ResourceCommon<TMachine> {
  kind: 'resource';
  uri: string;
  size?: number;
}

/** Resources at URIs matching a template, as `defineResourceTemplate` returns it. */
export interface ResourceTemplateDefinition<
  TMachine extends AnyStateMachine = AnyStateMachine,
> extends ResourceCommon<TMachine> {
  kind: 'template';
  /** RFC 6570 level 1, e.g. `test://template/{id}/data`. */
  uriTemplate: string;
  /** Completion values per template variable (completion/complete with ref/resource). */
  completions?: Record<string, Completions>;
}

/** A resource at `uri` whose contents are its machine's output; the machine's input is `{ uri }`. */
export function defineResource(spec: Omit<ResourceDefinition, 'kind'>): ResourceDefinition {
  return Object.freeze({ ...spec, kind: 'resource' as const });
}

/**
 * Resources whose URIs match `uriTemplate`; the machine's input is `{ uri, ...variables }`, the
 * template's variables as read from the URI asked for.
 */
export function defineResourceTemplate(spec: Omit<ResourceTemplateDefinition, 'kind'>): ResourceTemplateDefinition {
  return Object.freeze({ ...spec, kind: 'template' as const });
}
