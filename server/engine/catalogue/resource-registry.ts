/**
 * The resources and resource templates a server serves. A read URI resolves to a fixed resource
 * first, then to the first template that matches it.
 */
import { ConfigurationError } from '../configuration-error.js';
import { machineProblems } from './machine-checks.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from '../authoring/resource-definition.js';
import { parseUriTemplate, type UriTemplate } from './uri-template.js';

export interface ResolvedResource {
  definition: ResourceDefinition | ResourceTemplateDefinition;
  /** The machine's input: the URI and the template's variables. */
  input: Record<string, string>;
}

export class ResourceRegistry {
  readonly #resources = new Map<string, ResourceDefinition>();
  readonly #templates: Array<{ definition: ResourceTemplateDefinition; parsed: UriTemplate }> = [];

  constructor(entries: Array<ResourceDefinition | ResourceTemplateDefinition>) {
    const problems: string[] = [];
    for (const entry of entries) {
      if (entry.kind === 'resource') {
        const label = `resource "${entry.uri}"`;
        if (!URL.canParse(entry.uri)) problems.push(`${label}: the uri is not a valid URI.`);
        if (this.#resources.has(entry.uri)) problems.push(`${label}: defined twice.`);
        if (!entry.name) problems.push(`${label}: give it a name.`);
        problems.push(...machineProblems(label, entry.machine, { uri: entry.uri }));
        this.#resources.set(entry.uri, entry);
      } else {
        const label = `resource template "${entry.uriTemplate}"`;
        const parsed = parseUriTemplate(entry.uriTemplate);
        if (parsed.variables.length === 0) problems.push(`${label}: has no {variables}; define a resource instead.`);
        if (!entry.name) problems.push(`${label}: give it a name.`);
        problems.push(...machineProblems(label, entry.machine));
        this.#templates.push({ definition: entry, parsed });
      }
    }
    if (problems.length > 0) {
      throw new ConfigurationError(`Baton cannot serve these resources:\n  - ${problems.join('\n  - ')}`);
    }
  }

  get size(): number {
    return this.#resources.size + this.#templates.length;
  }

  resources(): ResourceDefinition[] {
    return [...this.#resources.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  templates(): ResourceTemplateDefinition[] {
    return this.#templates.map((t) => t.definition);
  }

  template(uriTemplate: string): ResourceTemplateDefinition | undefined {
    return this.#templates.find((t) => t.definition.uriTemplate === uriTemplate)?.definition;
  }

  resolve(uri: string): ResolvedResource | undefined {
    const fixed = this.#resources.get(uri);
    if (fixed) return { definition: fixed, input: { uri } };
    for (const { definition, parsed } of this.#templates) {
      const variables = parsed.match(uri);
      if (variables) return { definition, input: { ...variables, uri } };
    }
    return undefined;
  }
}
