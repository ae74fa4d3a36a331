/**
 * How a machine's output becomes a `CallToolResult`. Plain values map naturally (a string is one
 * text block; an object is structured content with its JSON as text, as the spec recommends);
 * an output that already has a `content` array is taken as a full result, for tools that want
 * images, resources or `isError` themselves. Only the fields of a CallToolResult are taken from
 * it: a machine cannot set `resultType` or anything else the protocol owns.
 */
import { isRecord } from '../plain-objects.js';
import type { CallToolResult, ContentBlock } from '../mcp-shapes.js';

function isContentBlock(value: unknown): value is ContentBlock {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function isFullResult(output: unknown): output is CallToolResult {
  if (typeof output !== 'object' || output === null) return false;
  const content = (output as { content?: unknown }).content;
  return Array.isArray(content) && content.every(isContentBlock);
}

/** The CallToolResult fields of a full result, and nothing else. */
function resultFields(output: CallToolResult): CallToolResult {
  const result: CallToolResult = { content: output.content };
  if (output.structuredContent !== undefined) result.structuredContent = output.structuredContent;
  if (typeof output.isError === 'boolean') result.isError = output.isError;
  if (isRecord(output._meta)) result._meta = output._meta;
  return result;
}

/**
 * `structured`: the tool declares an outputSchema, so any JSON value it outputs (an array or a
 * number too, not only an object) is its structured content (spec, server/tools "Output Schema").
 */
export function toToolResult(output: unknown, structured = false): CallToolResult {
  if (isFullResult(output)) return resultFields(output);
  if (output === undefined || output === null) return { content: [] };
  if (typeof output === 'string' && !structured) return { content: [{ type: 'text', text: output }] };
  const text = JSON.stringify(output);
  if (structured || isRecord(output)) return { content: [{ type: 'text', text }], structuredContent: output };
  return { content: [{ type: 'text', text }] };
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
