/**
 * What tools, prompts and resources share once served: entries keyed by a unique name, checked at
 * start-up with every problem reported at once (each naming the entry and the fix, so a broken
 * machine never reaches a client), and listed in a deterministic order (spec, server/tools:
 * SHOULD be deterministic).
 */
import { ConfigurationError } from '../configuration-error.js';

/** Spec, server/tools "Tool names"; prompts follow the same rule. */
export const PRIMITIVE_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export interface CatalogueKind<T> {
  /** What the error says Baton cannot serve: `tools`, `prompts`, `resources`. */
  plural: string;
  /** The unique key of an entry (a name, a URI, a URI template). */
  keyOf(entry: T): string;
  /** How problems name the entry: `tool "greet"`. */
  labelOf(entry: T): string;
  /** The entry's own problems, each starting with its label (machine checks add the state). */
  problemsOf(entry: T): string[];
}

export class Catalogue<T> {
  readonly #entries = new Map<string, T>();
  readonly #sorted: T[];

  constructor(kind: CatalogueKind<T>, entries: readonly T[]) {
    const problems: string[] = [];
    for (const entry of entries) {
      const key = kind.keyOf(entry);
      const label = kind.labelOf(entry);
      if (this.#entries.has(key)) problems.push(`${label}: defined twice; ${kind.plural} must have unique names.`);
      problems.push(...kind.problemsOf(entry));
      this.#entries.set(key, entry);
    }
    if (problems.length > 0) {
      throw new ConfigurationError(`Baton cannot serve these ${kind.plural}:\n  - ${problems.join('\n  - ')}`);
    }
    this.#sorted = [...this.#entries.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, entry]) => entry);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Every entry, ordered by key. */
  list(): T[] {
    return [...this.#sorted];
  }

  /** Every entry in the order it was given (first match wins where order matters). */
  inOrder(): T[] {
    return [...this.#entries.values()];
  }

  get(key: string): T | undefined {
    return this.#entries.get(key);
  }
}
