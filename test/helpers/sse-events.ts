/** Server-sent events as tests read them: one JSON-RPC message per event's `data:` lines. */

/** Splits the complete events off `buffer`: each event's parsed data, and the unfinished rest. */
export function splitSseEvents(buffer: string): { messages: any[]; rest: string } {
  const messages: any[] = [];
  let rest = buffer;
  let end: number;
  while ((end = rest.indexOf('\n\n')) >= 0) {
    const event = rest.slice(0, end);
    rest = rest.slice(end + 2);
    const data = event
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .join('\n');
    if (data) messages.push(JSON.parse(data));
  }
  return { messages, rest };
}

/** Reads SSE messages off a response until `count` have arrived. */
export async function readSseMessages(
  response: Response,
  count: number,
  onEach?: (message: any) => void,
): Promise<any[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const messages: any[] = [];
  let buffer = '';
  while (messages.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    const split = splitSseEvents(buffer + decoder.decode(value, { stream: true }));
    buffer = split.rest;
    for (const message of split.messages) {
      messages.push(message);
      onEach?.(message);
    }
  }
  reader.releaseLock();
  return messages;
}

/** Reads an SSE response as it arrives, one JSON-RPC message per event, until the stream ends. */
export async function* sseMessages(response: Response): AsyncGenerator<any> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    const split = splitSseEvents(buffer + decoder.decode(chunk, { stream: true }));
    buffer = split.rest;
    yield* split.messages;
  }
}
