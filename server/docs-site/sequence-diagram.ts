/**
 * A conversation (a real run of a flow, see conversation.ts) as a Mermaid `sequenceDiagram`: the
 * user, the client and Baton, plus the client's model when the flow samples. One block per round:
 * the call, where the machine waits, each question and its answer, and the final result.
 */
import type { InputRequest } from '../engine/index.js';
import type { Conversation, ConversationRound } from './conversation.js';
import { mermaidLabel } from './mermaid-text.js';
import { summarizeResponse } from './result-summary.js';

const MESSAGE_LENGTH = 90;

function text(value: string): string {
  return mermaidLabel(value, MESSAGE_LENGTH);
}

function firstCall(round: ConversationRound): string {
  const { method, params } = round.request;
  const subject = method === 'resources/read' ? params.uri : params.name;
  const args = params.arguments as Record<string, unknown> | undefined;
  const shown = args && Object.keys(args).length > 0 ? ` ${JSON.stringify(args)}` : '';
  return `${method} ${String(subject)}${shown}`;
}

function retryCall(round: ConversationRound): string {
  const keys = Object.keys((round.request.params.inputResponses as Record<string, unknown> | undefined) ?? {});
  // A task's rounds are its own methods: polls and answers, no requestState.
  if (round.request.method === 'tasks/get') return 'tasks/get';
  if (round.request.method === 'tasks/update') return `tasks/update + answers (${keys.join(', ')})`;
  return `${round.request.method} again + answers (${keys.join(', ')}) + requestState`;
}

function answerText(answer: unknown): string {
  const value = answer as { action?: string; content?: unknown; roots?: unknown[] } | undefined;
  if (value?.action)
    return value.content === undefined ? value.action : `${value.action} ${JSON.stringify(value.content)}`;
  if (Array.isArray(value?.roots)) {
    return `roots: ${value.roots.map((r) => (r as { uri?: string }).uri).join(', ') || '(none)'}`;
  }
  const content = (answer as { content?: { text?: unknown } } | undefined)?.content;
  return typeof content?.text === 'string' ? content.text : JSON.stringify(answer);
}

function questionLines(key: string, request: InputRequest, answer: unknown): string[] {
  const params = request.params ?? {};
  switch (request.method) {
    case 'elicitation/create':
      return [
        `C->>U: ${text(`${String(params.message)} (${key})`)}`,
        ...(params.mode === 'url' ? [`Note over U: ${text(`opens ${String(params.url)}`)}`] : []),
        `U-->>C: ${text(answerText(answer))}`,
      ];
    case 'sampling/createMessage': {
      const messages = params.messages as Array<{ content?: { text?: unknown } }> | undefined;
      const prompt = messages?.[0]?.content?.text;
      return [
        `C->>M: ${text(`sampling (${key}): ${typeof prompt === 'string' ? prompt : 'createMessage'}`)}`,
        `M-->>C: ${text(answerText(answer))}`,
      ];
    }
    case 'roots/list':
      return [`C->>C: ${text(`roots/list (${key}) → ${answerText(answer)}`)}`];
  }
}

export function toSequenceDiagram(conversation: Conversation): string {
  const samples = conversation.rounds.some((round) => {
    const requests = ('result' in round.response ? round.response.result.inputRequests : undefined) as
      Record<string, InputRequest> | undefined;
    return Object.values(requests ?? {}).some((r) => r.method === 'sampling/createMessage');
  });
  const lines = ['sequenceDiagram', '  participant U as User', '  participant C as Client'];
  if (samples) lines.push("  participant M as Client's model");
  lines.push('  participant S as Baton');
  conversation.rounds.forEach((round, index) => {
    lines.push(`  Note over C,S: round ${index + 1}`);
    lines.push(`  C->>S: ${text(index === 0 ? firstCall(round) : retryCall(round))}`);
    if (round.waitingIn.length > 0) lines.push(`  Note over S: ${text(`waits in ${round.waitingIn.join(', ')}`)}`);
    lines.push(`  S-->>C: ${text(summarizeResponse(round.response))}`);
    const requests = ('result' in round.response ? round.response.result.inputRequests : undefined) as
      Record<string, InputRequest> | undefined;
    for (const [key, request] of Object.entries(requests ?? {})) {
      lines.push(...questionLines(key, request, round.answers[key]).map((line) => `  ${line}`));
    }
  });
  if (conversation.outcome === 'unfinished') {
    lines.push(`  Note over C,S: ${text(`still asking after ${conversation.rounds.length} rounds`)}`);
  }
  return `${lines.join('\n')}\n`;
}
