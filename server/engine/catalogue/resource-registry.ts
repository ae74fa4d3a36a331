/**
 * The resources and resource templates a server serves (catalogue.ts). A read URI resolves to a
 * fixed resource first, then to the first template that matches it, in the order given.
 */
import { Catalogue } from './catalogue.js';
import { machineProblems } from './machine-checks.js';
import { catalogueFieldProblems } from './catalogue-field-checks.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from '../authoring/resource-definition.js';
import { parseUriTemplate, type UriTemplate } from './uri-template.js';

export interface ResolvedResource {
  definition: ResourceDefinition | ResourceTemplateDefinition;
  /** The machine's input: the URI and the template's variables. */
  input: Record<string, string>;
}

type Entry = ResourceDefinition | ResourceTemplateDefinition;

const labelOf = (entry: Entry) =>
  entry.kind === 'resource' ? `resource "${entry.uri}"` : `resource template "${entry.uriTemplate}"`;

function resourceProblems(entry: Entry): string[] {
  const label = labelOf(entry);
  const problems: string[] = [];
  if (!entry.name) problems.push(`${label}: give it a name.`);
  problems.push(...catalogueFieldProblems(label, entry));
  if (entry.kind === 'resource') {
    if (!URL.canParse(entry.uri)) problems.push(`${label}: the uri is not a valid URI.`);
    return [...problems, ...machineProblems(label, entry.machine, { uri: entry.uri })];
  }
  if (parseUriTemplate(entry.uriTemplate).variables.length === 0) {
    problems.push(`${label}: has no {variables}; define a resource instead.`);
  }
  return [...problems, ...machineProblems(label, entry.machine)];
}

export class ResourceRegistry {
  readonly #catalogue: Catalogue<Entry>;
  readonly #resources: Catalogue<ResourceDefinition>;
  readonly #templates: Array<{ definition: ResourceTemplateDefinition; parsed: UriTemplate }>;

  constructor(entries: Entry[]) {
    this.#catalogue = new Catalogue<Entry>(
      {
        plural: 'resources',
        keyOf: (entry) => (entry.kind === 'resource' ? entry.uri : entry.uriTemplate),
        labelOf,
        problemsOf: resourceProblems,
      },
      entries,
    );
    const all = this.#catalogue.inOrder();
    this.#resources = new Catalogue<ResourceDefinition>(
      { plural: 'resources', keyOf: (r) => r.uri, labelOf, problemsOf: () => [] },
      all.filter((entry): entry is ResourceDefinition => entry.kind === 'resource'),
    );
    this.#templates = all
      .filter((entry): entry is ResourceTemplateDefinition => entry.kind === 'template')
      .map((definition) => ({ definition, parsed: parseUriTemplate(definition.uriTemplate) }));
  }

  get size(): number {
    return this.#catalogue.size;
  }

  resources(): ResourceDefinition[] {
    return this.#resources.list();
  }

  templates(): ResourceTemplateDefinition[] {
    return this.#templates.map((t) => t.definition);
  }

  template(uriTemplate: string): ResourceTemplateDefinition | undefined {
    const entry = this.#catalogue.get(uriTemplate);
    return entry?.kind === 'template' ? entry : undefined;
  }

  /** Whether `key` is a registered resource URI or template, exactly as the catalogue names it. */
  defines(key: string): boolean {
    return this.#catalogue.get(key) !== undefined;
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
