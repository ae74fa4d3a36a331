/**
 * The wire of one MRTR round as the generator speaks it: the `tools/call` request (standard
 * headers, per-request `_meta`, a new id each round, the answers and the echoed `requestState`),
 * and the reading of the reply into "ask again" or "done", with every deviation an error: a
 * question not asked in this round, asked under another key, or with another message, and a
 * result other than the flow's.
 */
import type { BenchFlow } from '../flows/bench-flows.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { answerAll } from './answer-from-schema.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'baton-bench', version: '0.0.0' },
};

export function requestHeaders(tool: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
    'mcp-method': 'tools/call',
    'mcp-name': tool,
  };
}

export interface RoundInput {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

export function requestBody(id: number, flow: BenchFlow, round: RoundInput): Buffer {
  const params: Record<string, unknown> = { name: flow.tool, arguments: flow.arguments };
  if (round.inputResponses) params.inputResponses = round.inputResponses;
  if (round.requestState !== undefined) params.requestState = round.requestState;
  params._meta = META;
  return Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }));
}

export type RoundReading =
  | { kind: 'ask'; next: RoundInput; stateLength: number | undefined }
  | { kind: 'done' }
  | { kind: 'error'; message: string };

/** The JSON-RPC response for `id` in a JSON body or an SSE stream. */
export function responseMessage(contentType: string, body: Buffer, id: number): any {
  if (!contentType.includes('text/event-stream')) return JSON.parse(body.toString('utf8'));
  for (const event of body.toString('utf8').split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    const message = JSON.parse(data);
    if (message?.id === id && ('result' in message || 'error' in message)) return message;
  }
  return undefined;
}

/**
 * Who names the keys of a target's `inputRequests`: 'flow' when every question is asked under its
 * key in the flow definition, 'library' when the library chooses (the Python SDK keys a question by
 * its resolver's `module:qualname`); then a question is known by the field it asks.
 */
export type QuestionKeys = 'flow' | 'library';

/** The one field a form question asks: its requested schema's only property, or undefined. */
export function askedField(request: unknown): string | undefined {
  const schema = (request as { params?: { requestedSchema?: { properties?: unknown } } })?.params?.requestedSchema;
  const properties = schema?.properties;
  if (typeof properties !== 'object' || properties === null) return undefined;
  const names = Object.keys(properties);
  return names.length === 1 ? names[0] : undefined;
}

/**
 * Checks that round `round` of `flow` asked exactly its questions, each with the message the flow
 * gives it for what is `known` so far; returns what is wrong, or undefined.
 */
export function checkQuestions(
  flow: BenchFlow,
  round: number,
  inputRequests: Record<string, unknown>,
  known: Record<string, unknown>,
  keys: QuestionKeys,
): string | undefined {
  const expected = flow.rounds[round] ?? [];
  const entries = Object.entries(inputRequests);
  const asked = () => `round ${round + 1} asked ${JSON.stringify(Object.keys(inputRequests))}`;
  if (entries.length !== expected.length) return asked();
  const seen = new Set<string>();
  for (const [key, request] of entries) {
    const field = askedField(request);
    const question = expected.find((q) => q.key === field);
    if (!question || seen.has(question.key) || (keys === 'flow' && key !== question.key)) return asked();
    seen.add(question.key);
    const message = (request as { params?: { message?: unknown } }).params?.message;
    const wanted = question.message(known);
    if (message !== wanted) return `round ${round + 1} asked ${JSON.stringify(message)}, not ${JSON.stringify(wanted)}`;
  }
  return undefined;
}

/**
 * Reads the reply to round `round` (0-based) of `flow`. `known` collects the arguments and the
 * answers given so far, to check the final result against the flow's own definition.
 */
export function readRound(
  flow: BenchFlow,
  round: number,
  id: number,
  reply: { status: number; contentType: string; body: Buffer },
  known: Record<string, unknown>,
  keys: QuestionKeys = 'flow',
): RoundReading {
  if (reply.status !== 200)
    return { kind: 'error', message: `HTTP ${reply.status}: ${reply.body.toString().slice(0, 200)}` };
  let message: any;
  try {
    message = responseMessage(reply.contentType, reply.body, id);
  } catch {
    return { kind: 'error', message: `unparseable body: ${reply.body.toString().slice(0, 200)}` };
  }
  if (!message || message.id !== id) return { kind: 'error', message: 'no response with the request id' };
  if (message.error)
    return { kind: 'error', message: `JSON-RPC error ${message.error.code}: ${message.error.message}` };
  const result = message.result;
  if (typeof result !== 'object' || result === null) return { kind: 'error', message: 'no result' };

  const expectedKeys = flow.rounds[round]?.map((q) => q.key);
  if (result.resultType === 'input_required') {
    if (!expectedKeys) return { kind: 'error', message: `asked again after the last round (round ${round + 1})` };
    const { inputRequests, requestState } = result;
    if (typeof inputRequests !== 'object' || inputRequests === null) {
      return { kind: 'error', message: `round ${round + 1} asked nothing` };
    }
    const wrong = checkQuestions(flow, round, inputRequests, known, keys);
    if (wrong) return { kind: 'error', message: wrong };
    if (requestState !== undefined && typeof requestState !== 'string') {
      return { kind: 'error', message: 'requestState is not a string' };
    }
    let answers: Record<string, unknown>;
    try {
      answers = answerAll(inputRequests);
    } catch (error) {
      return { kind: 'error', message: (error as Error).message };
    }
    for (const answer of Object.values(answers)) Object.assign(known, (answer as { content?: object }).content);
    return {
      kind: 'ask',
      next: { inputResponses: answers, ...(requestState !== undefined ? { requestState } : {}) },
      stateLength: requestState?.length,
    };
  }
  if (result.resultType !== undefined && result.resultType !== 'complete') {
    return { kind: 'error', message: `unknown resultType ${String(result.resultType)}` };
  }
  if (expectedKeys) return { kind: 'error', message: `finished after ${round} rounds, expected ${flow.rounds.length}` };
  if (result.isError) return { kind: 'error', message: `tool error: ${JSON.stringify(result.content).slice(0, 200)}` };
  const expected = flow.result(known);
  const matches =
    typeof expected === 'string'
      ? result.content?.[0]?.text === expected
      : JSON.stringify(result.structuredContent) === JSON.stringify(expected);
  return matches
    ? { kind: 'done' }
    : { kind: 'error', message: `unexpected result ${JSON.stringify(result).slice(0, 200)}` };
}
