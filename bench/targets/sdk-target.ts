/**
 * Target 2: the same flows written for the official TypeScript SDK v2, the way its docs serve the
 * stateless 2026-07-28 core: `createMcpHandler` with a fresh `McpServer` per request, mounted on
 * node:http with `toNodeHandler` behind the localhost Host/Origin guards, and the SDK's
 * HMAC-SHA256 request-state codec (`createRequestStateCodec`) carrying the answers so far between
 * rounds, bound to the method. Answers are validated against the asked schema
 * (`acceptedContent` with the schema), as Baton validates them. Dev-only comparison code.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import {
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  McpServer,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { BENCH_FLOWS, callToolResult, type BenchFlow } from '../flows/bench-flows.js';
import type { StartedTarget } from './started-target.js';

/** What crosses a round in the SDK's request state: where the flow is and what is known. */
interface FlowState {
  tool: string;
  args: string;
  round: number;
  known: Record<string, unknown>;
}

type Codec = ReturnType<typeof createRequestStateCodec<FlowState>>;

function flowHandler(flow: BenchFlow, codec: Codec) {
  // Schemas are compiled once, not per request.
  const answerSchemas = new Map(flow.rounds.flat().map((q) => [q.key, fromJsonSchema(q.schema)]));
  return async (args: Record<string, unknown>, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
    const argsText = JSON.stringify(args);
    const prior = ctx.mcpReq.requestState<FlowState>();
    if (prior && (prior.tool !== flow.tool || prior.args !== argsText)) {
      return { content: [{ type: 'text', text: 'requestState does not belong to this call' }], isError: true };
    }
    let round = prior?.round ?? 0;
    const known: Record<string, unknown> = prior ? { ...prior.known } : { ...args };
    if (prior) {
      for (const question of flow.rounds[round] ?? []) {
        const view = inputResponse(ctx.mcpReq.inputResponses, question.key);
        if (view.kind === 'elicit' && view.action !== 'accept') return callToolResult('Cancelled.');
        const content = acceptedContent(ctx.mcpReq.inputResponses, question.key, answerSchemas.get(question.key)!);
        if (content) Object.assign(known, content);
      }
      if ((flow.rounds[round] ?? []).every((q) => q.key in known)) round++;
    }
    const questions = flow.rounds[round];
    if (!questions) return callToolResult(flow.result(known));
    const inputRequests = Object.fromEntries(
      questions
        .filter((q) => !(q.key in known))
        .map((q) => [q.key, inputRequired.elicit({ message: q.message(known), requestedSchema: q.schema as never })]),
    );
    const requestState = await codec.mint({ tool: flow.tool, args: argsText, round, known }, ctx);
    return inputRequired({ inputRequests, requestState });
  };
}

export async function startSdk(): Promise<StartedTarget> {
  const codec = createRequestStateCodec<FlowState>({
    key: new Uint8Array(randomBytes(32)),
    ttlSeconds: 900,
    bind: (ctx) => ctx.mcpReq.method,
  });
  const tools = BENCH_FLOWS.map((flow) => ({
    flow,
    inputSchema: fromJsonSchema<Record<string, unknown>>(flow.inputSchema as never),
    handler: flowHandler(flow, codec),
  }));
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: 'sdk-bench', version: '0.0.0' }, { requestState: { verify: codec.verify } });
      for (const tool of tools) {
        server.registerTool(
          tool.flow.tool,
          { description: tool.flow.description, inputSchema: tool.inputSchema },
          tool.handler as never,
        );
      }
      return server;
    },
    { legacy: 'reject' },
  );
  const serve = toNodeHandler(handler);
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();
  const server = createServer((req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    // A request a server receives always has its method; Node's type leaves it optional for responses.
    void serve(req as Parameters<typeof serve>[0], res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, server };
}
