/**
 * A docs page as plain data, rendered twice: to Markdown for the committed `docs/tools/` and to
 * HTML for `GET /docs`. Keeping one model means the served page and the file cannot say different
 * things.
 */
import type { Icon } from '../engine/index.js';
import type { FlowKind } from './documented-flow.js';

export type PageRef = { kind: 'index' } | { kind: FlowKind; slug: string };

/** Inline text: plain, code, or a link to another page. */
export type Inline = string | { code: string } | { text: string; to: PageRef };

export type Block =
  | { type: 'heading'; text: string }
  | { type: 'paragraph'; content: Inline[] }
  | { type: 'table'; header: string[]; rows: Inline[][][] }
  /** Mermaid source; `kind` lets the browser test know which diagram it looks at. */
  | { type: 'diagram'; kind: 'state' | 'sequence'; source: string }
  | { type: 'code'; language: 'json'; source: string };

export interface DocPage {
  ref: PageRef;
  title: string;
  /** The entry's icons (schema 2026-07-28 `icons`), shown beside the title. */
  icons?: Icon[];
  blocks: Block[];
}

export const code = (text: string): Inline => ({ code: text });
