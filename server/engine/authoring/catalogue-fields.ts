/**
 * What a tool, prompt or resource shows a client besides its name (icons, `_meta`), and what a
 * caller needs to use it (OAuth scopes). Shapes from schema 2026-07-28 (`Icon`, `Icons`,
 * `MetaObject`); checked at start-up by catalogue/catalogue-field-checks.ts.
 */

/** An icon a client may show beside the entry (schema 2026-07-28, `Icon`). */
export interface Icon {
  /** An `https:` URL or a `data:image/…;base64,…` URI. */
  src: string;
  /** `image/png`, `image/jpeg`, `image/svg+xml`, `image/webp`…; clients must take PNG and JPEG. */
  mimeType?: string;
  /** `48x48`, `96x96`, or `any` for a scalable image. */
  sizes?: string[];
  /** The background the icon is drawn for. */
  theme?: 'light' | 'dark';
}

/** Fields a tool, prompt or resource may add to its list entry: required scopes, icons, `_meta`. */
export interface CatalogueFields {
  /**
   * OAuth scopes an access token must carry to see and use this entry (docs/security.md,
   * "Scopes"). A caller without all of them does not find it in the lists, and calling it
   * anyway is refused with 403 `insufficient_scope` naming every one.
   */
  scopes?: string[];
  /** Icons clients show (tools/list, prompts/list, resources/list and the docs pages). */
  icons?: Icon[];
  /**
   * Sent as the entry's `_meta` in the lists. Keys are `name` or `prefix/name` (reverse DNS,
   * e.g. `com.example/owner`); prefixes whose second label is `modelcontextprotocol` or `mcp`
   * belong to MCP and its extensions.
   */
  _meta?: Record<string, unknown>;
}
