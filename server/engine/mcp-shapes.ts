/**
 * The MCP 2026-07-28 data shapes the engine produces and consumes (schema.ts). These are MCP
 * payloads, not JSON-RPC: the protocol layer wraps them in messages.
 */

/** `ClientCapabilities` as declared per request in `_meta`; open-ended by design. */
export type ClientCapabilities = Record<string, any>;

/** One entry of `InputRequiredResult.inputRequests`: a bare request, no `jsonrpc`, no `id`. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params?: Record<string, unknown>;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}
/** Any `ContentBlock` (text, image, audio, resource_link, resource). */
export type ContentBlock = TextContent | { type: string; [field: string]: unknown };

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}
