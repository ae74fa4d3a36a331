/**
 * How a prompt machine's output becomes a `GetPromptResult`: a string is one user text message,
 * an array is the messages, an object with `messages` is the full result.
 */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: Record<string, unknown>;
}
export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

export function toPromptResult(output: unknown): PromptResult {
  if (typeof output === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: output } }] };
  if (Array.isArray(output)) return { messages: output as PromptMessage[] };
  if (output && typeof output === 'object' && Array.isArray((output as PromptResult).messages)) {
    return output as PromptResult;
  }
  throw new TypeError('A prompt machine must output a string, an array of messages, or { messages }');
}
