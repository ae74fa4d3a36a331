/**
 * How a prompt machine's output becomes a `GetPromptResult`: a string is one user text message,
 * an array is the messages, an object with `messages` is the full result.
 */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: Record<string, unknown>;
}
/** A prompt's whole result (prompts/get's `GetPromptResult`), one shape a prompt machine may output. */
export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

const SHAPE = 'A prompt machine must output a string, an array of messages, or { messages }';

/** A PromptMessage: a role and one content block; anything else is the machine's bug. */
function message(value: unknown): PromptMessage {
  const { role, content } = (value ?? {}) as Partial<PromptMessage>;
  if ((role === 'user' || role === 'assistant') && content && typeof content.type === 'string')
    return { role, content };
  throw new TypeError(`${SHAPE}; each message is { role: "user" | "assistant", content: { type, … } }`);
}

export function toPromptResult(output: unknown): PromptResult {
  if (typeof output === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: output } }] };
  if (Array.isArray(output)) return { messages: output.map(message) };
  if (output && typeof output === 'object' && Array.isArray((output as PromptResult).messages)) {
    const { description, messages } = output as PromptResult;
    return { ...(typeof description === 'string' ? { description } : {}), messages: messages.map(message) };
  }
  throw new TypeError(SHAPE);
}
