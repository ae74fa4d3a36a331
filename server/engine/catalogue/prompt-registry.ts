/** The prompts a server serves, checked at start-up like tools (catalogue.ts). */
import { Catalogue, PRIMITIVE_NAME } from './catalogue.js';
import { machineProblems } from './machine-checks.js';
import { catalogueFieldProblems } from './catalogue-field-checks.js';
import type { PromptDefinition } from '../authoring/prompt-definition.js';

function promptProblems(prompt: PromptDefinition): string[] {
  const label = `prompt "${prompt.name}"`;
  const problems: string[] = [];
  if (!PRIMITIVE_NAME.test(prompt.name ?? ''))
    problems.push(`${label}: names are 1-128 characters of A-Z a-z 0-9 _ - .`);
  if (!prompt.description) problems.push(`${label}: give it a description; clients show it.`);
  const names = (prompt.arguments ?? []).map((a) => a.name);
  if (new Set(names).size !== names.length) problems.push(`${label}: two arguments share a name.`);
  problems.push(...catalogueFieldProblems(label, prompt));
  return [...problems, ...machineProblems(label, prompt.machine, prompt.exampleArguments)];
}

export class PromptRegistry {
  readonly #catalogue: Catalogue<PromptDefinition>;

  constructor(prompts: PromptDefinition[]) {
    this.#catalogue = new Catalogue(
      {
        plural: 'prompts',
        keyOf: (prompt) => prompt.name,
        labelOf: (prompt) => `prompt "${prompt.name}"`,
        problemsOf: promptProblems,
      },
      prompts,
    );
  }

  get size(): number {
    return this.#catalogue.size;
  }

  list(): PromptDefinition[] {
    return this.#catalogue.list();
  }

  get(name: string): PromptDefinition | undefined {
    return this.#catalogue.get(name);
  }

  /**
   * Undefined when every required argument is there and all values are strings, else why not.
   * Undeclared arguments are let through to the machine, but as strings too (the schema's
   * `arguments: { [key: string]: string }`).
   */
  checkArguments(prompt: PromptDefinition, args: Record<string, unknown>): string | undefined {
    for (const [name, value] of Object.entries(args)) {
      if (typeof value !== 'string') return `argument "${name}" must be a string`;
    }
    for (const argument of prompt.arguments ?? []) {
      const value = args[argument.name];
      if (value === undefined) {
        if (argument.required) return `missing required argument "${argument.name}"`;
      } else if (typeof value !== 'string') {
        return `argument "${argument.name}" must be a string`;
      }
    }
    return undefined;
  }
}
