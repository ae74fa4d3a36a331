/**
 * The names a metric label or a span name may carry for a request's target: a closed set, so a
 * client cannot grow the number of series or put its own text in a span name
 * (docs/observability.md, "What is never recorded"). The set is the catalogue's: tool and prompt
 * names, a resource's registered URI or its template (never the URI a client read). A name
 * outside it is recorded as `unknown`.
 *
 * The service names its catalogue (create-mcp-service.ts). A cap on distinct names stands behind
 * it: without a catalogue, or with one that grows (`baton dev` reloading tools), the number of
 * series still has a bound.
 */

/** What a name outside the catalogue (or past the cap) is recorded as. */
export const UNKNOWN_TARGET = 'unknown';

/** Distinct names per method recorded at most; later ones are `unknown`. */
export const MAX_TARGET_NAMES = 1000;

/** Says whether `name` is one the catalogue defines for `method` (`tools/call`, `prompts/get`, `resources/read`). */
export interface TargetCatalogue {
  has(method: string, name: string): boolean;
}

export class TargetLabels {
  #catalogue: TargetCatalogue | undefined;
  /** Names seen per method: the cap counts them. */
  readonly #seen = new Map<string, Set<string>>();

  /** From now on, only names the catalogue defines are recorded as themselves. */
  useCatalogue(catalogue: TargetCatalogue): void {
    this.#catalogue = catalogue;
  }

  /** The label for a target: `name` itself when it is in the closed set, else `unknown`. */
  label(method: string, name: string): string {
    if (this.#catalogue && !this.#catalogue.has(method, name)) return UNKNOWN_TARGET;
    let seen = this.#seen.get(method);
    if (seen === undefined) {
      seen = new Set();
      this.#seen.set(method, seen);
    }
    if (seen.has(name)) return name;
    if (seen.size >= MAX_TARGET_NAMES) return UNKNOWN_TARGET;
    seen.add(name);
    return name;
  }
}
