/**
 * How a machine's output becomes a `CallToolResult`. Plain values map naturally (a string is one
 * text block; an object is structured content with its JSON as text, as the spec recommends);
 * an output that already has a `content` array is taken as a full result, for tools that want
 * images, resources or `isError` themselves. Only the fields of a CallToolResult are taken from
 * it: a machine cannot set `resultType` or anything else the protocol owns.
 */
import { isRecord } from '../plain-objects.js';
import type { CallToolResult, ContentBlock } from '../mcp-shapes.js';
import type { ToolDefinition } from '../authoring/tool-definition.js';
import type { Logger } from '../logger.js';

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

/** What holds a result to its tool's outputSchema: undefined when it conforms, else what is wrong. */
export type ResultCheck = (tool: ToolDefinition, result: CallToolResult) => string | undefined;

/**
 * The result a flow or a task answers for its final output: `toToolResult`, held to the tool's
 * outputSchema by `check` (the registry's). A result that breaks it is the tool's own bug, not the
 * model's: the caller gets a tool error saying so, never the bad result, and the log a
 * `tool_output_invalid` warning. One place, so `tools/call` and a task's result cannot drift.
 */
export function finalToolResult(
  tool: ToolDefinition,
  output: unknown,
  check: ResultCheck,
  logger: Logger,
): CallToolResult {
  const result = toToolResult(output, tool.outputSchema !== undefined);
  const broken = check(tool, result);
  if (!broken) return result;
  logger.warn('tool_output_invalid', { tool: tool.name, problem: broken });
  return toolError(`Tool ${tool.name} produced a result that does not match its outputSchema: ${broken}`);
}
