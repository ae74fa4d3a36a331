/** The prompts a server serves, checked at start-up like tools. */
import { ConfigurationError } from '../configuration-error.js';
import { machineProblems } from './machine-checks.js';
import type { PromptDefinition } from '../authoring/prompt-definition.js';

const PROMPT_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export class PromptRegistry {
  readonly #prompts = new Map<string, PromptDefinition>();

  constructor(prompts: PromptDefinition[]) {
    const problems: string[] = [];
    for (const prompt of prompts) {
      const label = `prompt "${prompt.name}"`;
      if (!PROMPT_NAME.test(prompt.name ?? ''))
        problems.push(`${label}: names are 1-128 characters of A-Z a-z 0-9 _ - .`);
      if (this.#prompts.has(prompt.name)) problems.push(`${label}: defined twice; prompt names must be unique.`);
      if (!prompt.description) problems.push(`${label}: give it a description; clients show it.`);
      const names = (prompt.arguments ?? []).map((a) => a.name);
      if (new Set(names).size !== names.length) problems.push(`${label}: two arguments share a name.`);
      problems.push(...machineProblems(label, prompt.machine, prompt.exampleArguments));
      this.#prompts.set(prompt.name, prompt);
    }
    if (problems.length > 0)
      throw new ConfigurationError(`Baton cannot serve these prompts:\n  - ${problems.join('\n  - ')}`);
  }

  get size(): number {
    return this.#prompts.size;
  }

  list(): PromptDefinition[] {
    return [...this.#prompts.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  get(name: string): PromptDefinition | undefined {
    return this.#prompts.get(name);
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
