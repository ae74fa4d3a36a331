/**
 * Target 3, the floor: bare Koa answering the same sequence of requests with constant replies.
 * Per request it reads the body, parses the JSON, looks the reply up by tool name and echoed
 * `requestState`, and writes it with the request's id: the least any Koa server answering these
 * flows can do on this machine. The constant states are as long as Baton's typical sealed state,
 * so the client sends and parses as many bytes.
 */
import Koa from 'koa';
import { BENCH_FLOWS, callToolResult, type BenchFlow } from '../flows/bench-flows.js';
import { contentForSchema } from '../load/answer-from-schema.js';
import type { StartedTarget } from './started-target.js';
import { requestWork } from './request-work.js';

const STATE_LENGTH = 440;
const SERVER_META = { 'io.modelcontextprotocol/serverInfo': { name: 'floor', version: '0.0.0' } };

/** The floor's constant state after asking round `round` (0 for the first) of `flow`. */
export function constantState(flow: BenchFlow, round: number): string {
  return `f1.${flow.label}.${round}.`.padEnd(STATE_LENGTH, 'A');
}

/** Reply texts keyed by `tool NUL requestState` (empty for the first round). */
export function floorReplies(): Map<string, string> {
  const replies = new Map<string, string>();
  for (const flow of BENCH_FLOWS) {
    const known: Record<string, unknown> = { ...flow.arguments };
    flow.rounds.forEach((questions, round) => {
      const inputRequests = Object.fromEntries(
        questions.map((q) => [
          q.key,
          {
            method: 'elicitation/create',
            params: { mode: 'form', message: q.message(known), requestedSchema: q.schema },
          },
        ]),
      );
      const result = {
        resultType: 'input_required',
        inputRequests,
        requestState: constantState(flow, round),
        _meta: SERVER_META,
      };
      replies.set(`${flow.tool}\u0000${round === 0 ? '' : constantState(flow, round - 1)}`, JSON.stringify(result));
      for (const q of questions) Object.assign(known, contentForSchema(q.schema));
    });
    const final = { resultType: 'complete', ...callToolResult(flow.result(known)), _meta: SERVER_META };
    replies.set(`${flow.tool}\u0000${constantState(flow, flow.rounds.length - 1)}`, JSON.stringify(final));
  }
  return replies;
}

/** The floor's own work for one request: parse it, look its reply up, write the reply's text. */
export function floorAnswer(replies: Map<string, string>, text: string): string {
  const message = JSON.parse(text);
  const params = message?.params ?? {};
  const result = replies.get(`${params.name}\u0000${params.requestState ?? ''}`);
  return result
    ? `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`
    : `{"jsonrpc":"2.0","id":${JSON.stringify(message?.id ?? null)},"error":{"code":-32602,"message":"unknown"}}`;
}

export async function startFloor(): Promise<StartedTarget> {
  const replies = floorReplies();
  const answer = (text: string) => floorAnswer(replies, text);
  const app = new Koa();
  app.use(async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    ctx.type = 'application/json';
    // Timed as it runs under load (request-work.ts); about 0.1 µs a request.
    ctx.body = requestWork.time(answer, Buffer.concat(chunks).toString('utf8'));
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/mcp`, server };
}
