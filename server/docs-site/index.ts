/**
 * The docs site: a page per tool, prompt and resource (Markdown for docs/tools, HTML for GET
 * /docs) with its Mermaid state diagram, the sequence diagram of a real run, and the Try it
 * panel. Uses the engine and the protocol layer; knows nothing of Koa.
 */
export { toStateDiagram, StateDiagramWriter, STATE_DIAGRAM_FRONTMATTER } from './state-diagram.js';
export {
  machineGraph,
  guardLabel,
  keyPath,
  type MachineGraph,
  type GraphNode,
  type GraphEdge,
  type GraphEdgeKind,
} from './machine-graph.js';
export { toSequenceDiagram } from './sequence-diagram.js';
export {
  runConversation,
  scrubRandomIds,
  shortenState,
  type Conversation,
  type ConversationOptions,
  type ConversationRound,
} from './conversation.js';
export { summarizeQuestion, describeSchemaType, type QuestionSummary } from './question-summary.js';
export { mermaidLabel, MermaidIds } from './mermaid-text.js';
export {
  flowName,
  flowSlug,
  exampleParams,
  exampleUri,
  type DocumentedFlow,
  type FlowKind,
} from './documented-flow.js';
export type { DocPage, Block, Inline, PageRef } from './doc-page.js';
export { DocsSite, documentedFlows, type DocsContent } from './docs-site.js';
export { renderMarkdown, markdownFileName } from './markdown-renderer.js';
export { renderHtml, pagePath, escapeHtml, DOCS_SCRIPT, DOCS_STYLE, type HtmlExtras } from './html-renderer.js';
export { tryItData, renderTryItPanel, type TryItAuth, type TryItData, type TryItOptions } from './try-it-panel.js';
export {
  renderDocsFiles,
  compareDocsFiles,
  writeDocsFiles,
  DOCS_TOOLS_DIR,
  DOCS_PUBLIC_URL,
  type DocsDifference,
} from './docs-files.js';
