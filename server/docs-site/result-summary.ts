/**
 * One line for what a round answered: a tool result's text or structured content, a prompt's
 * first message, a resource's first contents, an error's code and message. For diagrams and
 * tables; the wire example shows the full JSON.
 */
import type { JsonRpcResponse } from '../protocol/index.js';

type Json = Record<string, unknown>;

function blockText(block: Json | undefined): string {
  if (!block) return '';
  if (typeof block.text === 'string') return block.text;
  if (block.type === 'resource') return `resource ${(block.resource as Json | undefined)?.uri ?? ''}`.trim();
  if (block.type === 'resource_link') return `link ${block.uri ?? ''}`.trim();
  return `(${String(block.type ?? 'content')})`;
}

function toolSummary(result: Json): string {
  const prefix = result.isError === true ? 'error: ' : '';
  if (result.structuredContent !== undefined) return `${prefix}${JSON.stringify(result.structuredContent)}`;
  const content = Array.isArray(result.content) ? (result.content as Json[]) : [];
  const text = content.map(blockText).filter(Boolean).join(' ');
  return `${prefix}${text || '(no content)'}`;
}

function promptSummary(result: Json): string {
  const messages = result.messages as Array<{ role?: string; content?: Json }>;
  const first = messages[0];
  const more = messages.length > 1 ? ` (+${messages.length - 1} more)` : '';
  return first ? `${first.role ?? 'message'}: ${blockText(first.content)}${more}` : '(no messages)';
}

function resourceSummary(result: Json): string {
  const contents = result.contents as Json[];
  const first = contents[0];
  if (!first) return '(no contents)';
  if (typeof first.text === 'string') return first.text;
  const blob = typeof first.blob === 'string' ? first.blob : '';
  return `(${String(first.mimeType ?? 'binary')}, ${Math.floor((blob.length * 3) / 4)} bytes)`;
}

/** A task as tasks/get shows it: its status, its questions or its result. */
function taskSummary(task: Json): string {
  switch (task.status) {
    case 'input_required':
      return `task input_required: ${Object.keys((task.inputRequests as Json | undefined) ?? {}).join(', ')}`;
    case 'completed':
      return `task completed: ${toolSummary((task.result as Json | undefined) ?? {})}`;
    case 'failed':
      return `task failed: ${String((task.error as Json | undefined)?.message ?? '')}`;
    default:
      return `task ${String(task.status)}`;
  }
}

export function summarizeResponse(response: JsonRpcResponse): string {
  if ('error' in response) return `error ${response.error.code}: ${response.error.message}`;
  const result = response.result;
  if (result.resultType === 'input_required') {
    return `input_required: ${Object.keys((result.inputRequests as Json | undefined) ?? {}).join(', ')}`;
  }
  if (result.resultType === 'task') return `task created (${String(result.status)})`;
  if (typeof result.taskId === 'string' && typeof result.status === 'string') return taskSummary(result);
  if (Object.keys(result).every((key) => key === 'resultType' || key === '_meta')) return 'acknowledged';
  if (Array.isArray(result.messages)) return promptSummary(result);
  if (Array.isArray(result.contents)) return resourceSummary(result);
  return toolSummary(result);
}
