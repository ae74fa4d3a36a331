/**
 * How a machine's output becomes a `CallToolResult`. Plain values map naturally (a string is one
 * text block; an object is structured content with its JSON as text, as the spec recommends);
 * an output that already has a `content` array is taken as a full result, for tools that want
 * images, resources or `isError` themselves.
 */
import type { CallToolResult, ContentBlock } from './mcp-shapes.js';

function isContentBlock(value: unknown): value is ContentBlock {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function isFullResult(output: unknown): output is CallToolResult {
  if (typeof output !== 'object' || output === null) return false;
  const content = (output as { content?: unknown }).content;
  return Array.isArray(content) && content.every(isContentBlock);
}

export function toToolResult(output: unknown): CallToolResult {
  if (isFullResult(output)) return output;
  if (output === undefined || output === null) return { content: [] };
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };
  if (typeof output === 'object' && !Array.isArray(output)) {
    return {
      content: [{ type: 'text', text: JSON.stringify(output) }],
      structuredContent: output as Record<string, unknown>,
    };
  }
  return { content: [{ type: 'text', text: JSON.stringify(output) }] };
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
