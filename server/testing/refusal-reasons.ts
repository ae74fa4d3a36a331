/**
 * Why the server refused a test's answer, read back from the re-ask: the engine asks a refused
 * question again with its reason before the message (pending-questions.ts, `toInputRequest`), and
 * nothing else on the wire carries it. A run that keeps being asked reports the last reason, so a
 * loop caused by a wrong answer says what was wrong with it.
 */
import type { InputRequest } from '../engine/index.js';

/** The engine's re-ask reasons all start so (answer-delivery.ts, answers.ts). */
const REASON_START = 'Your last answer ';

const messageOf = (request: InputRequest) =>
  typeof request.params?.message === 'string' ? request.params.message : undefined;

/** The last answer the server refused in a run: its question key and the reason it gave. */
export interface Refusal {
  key: string;
  reason: string;
}

/**
 * Watches the requests a run answers, by question key: the first asking of a question gives its
 * plain message, a later one that starts with a reason gives the refusal (the part before the
 * plain message, or the whole message when the message itself changed with the context).
 */
export function refusalWatcher(): { see(key: string, request: InputRequest): void; last(): Refusal | undefined } {
  const plain = new Map<string, string>();
  let last: Refusal | undefined;
  return {
    see(key, request) {
      const message = messageOf(request);
      if (message === undefined) return;
      if (!message.startsWith(REASON_START)) {
        if (!plain.has(key)) plain.set(key, message);
        return;
      }
      const asked = plain.get(key);
      const reason =
        asked !== undefined && message.endsWith(` ${asked}`) ? message.slice(0, -asked.length - 1) : message;
      last = { key, reason };
    },
    last: () => last,
  };
}
