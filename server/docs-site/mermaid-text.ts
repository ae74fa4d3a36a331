/**
 * Text that is safe inside Mermaid source. Mermaid decodes `#name;` and `#123;` entities in every
 * diagram before drawing, so characters its parsers treat as syntax are written as entities:
 * `;` ends a statement, `%%` starts a comment, `<`/`>` read as HTML and `-->` as an edge, `#`
 * starts an entity; quotes end a quoted state name, and braces open and close composite states.
 */

const ENTITIES: Record<string, string> = {
  '#': '#35;',
  '"': '#quot;',
  ';': '#59;',
  '%': '#37;',
  '<': '#lt;',
  '>': '#gt;',
  '{': '#123;',
  '}': '#125;',
  '`': '#96;',
  '\\': '#92;',
};

/** Longest label line before it is cut with an ellipsis, so boxes stay readable. */
export const MAX_LABEL_LENGTH = 60;

/** Collapses whitespace and cuts at `max` characters (an ellipsis marks the cut). */
export function shorten(text: string, max = MAX_LABEL_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** Where a label goes: plain text (descriptions, edges, messages), a quoted state name, or a state-diagram note. */
export type LabelPlace = 'text' | 'name' | 'note';

const SPECIAL: Record<LabelPlace, RegExp> = {
  text: /[#;%<>`\\]/g,
  // A quoted name ends at a quote, and braces after it open a composite state.
  name: /[#;%<>`\\"{}]/g,
  // A note's parser also reads a colon as a separator.
  note: /[#;%<>`\\"{}:]/g,
};

/** A label as Mermaid source, cut at `max` characters. */
export function mermaidLabel(text: string, max = MAX_LABEL_LENGTH, place: LabelPlace = 'text'): string {
  return shorten(text, max).replace(SPECIAL[place], (c) => ENTITIES[c] ?? `#${c.charCodeAt(0)};`);
}

/**
 * Hands out Mermaid ids: word characters only, always starting with a letter (so no id is a
 * keyword or starts with a digit), unique within one diagram. The same names asked in the same
 * order get the same ids, which keeps the output deterministic.
 */
export class MermaidIds {
  readonly #taken = new Set<string>();
  readonly #byName = new Map<string, string>();

  id(name: string, prefix = 's'): string {
    const known = this.#byName.get(`${prefix}\u0000${name}`);
    if (known) return known;
    const base = `${prefix}_${name.replace(/[^A-Za-z0-9]+/g, '_')}`.replace(/_+$/, '') || prefix;
    let candidate = base;
    for (let n = 2; this.#taken.has(candidate); n++) candidate = `${base}_${n}`;
    this.#taken.add(candidate);
    this.#byName.set(`${prefix}\u0000${name}`, candidate);
    return candidate;
  }
}
