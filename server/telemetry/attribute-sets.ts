/**
 * Metric attribute sets, built once per distinct combination of their parts and reused (one
 * frozen object per combination). Every metric point of a request looks its set up here, so the
 * lookup must cost next to nothing: the parts key nested maps, one level each, instead of being
 * joined into a string key (a new string per point, hashed in full: it was the largest part of
 * Baton's own metric cost in a profile of a traced request, docs/benchmarks.md, "Telemetry").
 *
 * The parts must come from bounded sets (baton-metrics.ts says which), since every combination
 * stays cached for the life of the process.
 */
import type { Attributes } from '@opentelemetry/api';

type Level = Map<unknown, unknown>;

export class AttributeSets<A, B = undefined, C = undefined, D = undefined> {
  readonly #root: Level = new Map();
  readonly #build: (a: A, b: B, c: C, d: D) => Attributes;

  /** `build` makes the set for parts not seen before; it is called once per combination. */
  constructor(build: (a: A, b: B, c: C, d: D) => Attributes) {
    this.#build = build;
  }

  /** The set for these parts (the parts a family does not use are left undefined). */
  get(a: A, b?: B, c?: C, d?: D): Attributes {
    const second = this.#level(this.#root, a);
    const third = this.#level(second, b);
    const fourth = this.#level(third, c);
    let set = fourth.get(d) as Attributes | undefined;
    if (set === undefined) {
      set = Object.freeze(this.#build(a, b as B, c as C, d as D));
      fourth.set(d, set);
    }
    return set;
  }

  #level(parent: Level, key: unknown): Level {
    let level = parent.get(key) as Level | undefined;
    if (level === undefined) {
      level = new Map();
      parent.set(key, level);
    }
    return level;
  }
}
