/**
 * A raw MCP client for load through a proxy: drives one multi-round tool call to its end over
 * keep-alive HTTP (node:http), answering every form question from a table of replies, and records
 * which instance answered each round (the `Baton-Instance` header).
 *
 * A round that fails in transit (connection error, timeout, or 502/503/504 from the proxy) is
 * sent again with a new JSON-RPC id and the same `requestState` and answers, as a client should:
 * the state holds all the flow needs, so any instance can take the retry. So is a round refused
 * with "being processed by another request" (a single-use state still claimed by a run in
 * flight). A round refused with "already used" (a single-use state whose first run was cut off,
 * so its effect may have happened) ends the flow with that refusal recorded, as the spec'd client
 * would show it to the user. Anything else ends the flow with an error.
 */
import { Agent, request } from 'node:http';
import { requestMeta, standardHeaders } from './mcp-http.js';

export interface RoundRecord {
  /** The instance that answered the round. */
  instance: string;
  /** Failed attempts before it succeeded, by kind: `connection`, `502`, `in_use`, … */
  failures: string[];
  /** Whether this round confirmed the tool's effect (its answers accepted `confirm: true`). */
  effect: boolean;
  /** When the successful answer arrived (ms since the epoch). */
  answeredAt: number;
}

export interface FlowRecord {
  tool: string;
  args: Record<string, unknown>;
  rounds: RoundRecord[];
  /** The final CallToolResult (empty when the flow was refused). */
  result: Record<string, any>;
  /** Set when the server refused a round for good: the error's `data.reason`. */
  refusal?: string;
}

/** A round the server refused for good; runFlow turns it into the flow's `refusal`. */
class RoundRefused extends Error {
  constructor(
    readonly reason: string,
    readonly record: RoundRecord,
  ) {
    super(reason);
  }
}

interface Answer {
  status: number;
  instance: string;
  body: any;
  text: string;
}

export interface FleetClientOptions {
  /** Concurrent connections to the proxy (the keep-alive pool size). */
  sockets: number;
  /** Attempts per round before the flow fails (default 10). */
  maxAttempts?: number;
  /** Per-request timeout (default 15 s). */
  timeoutMs?: number;
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);

export class FleetClient {
  readonly #url: URL;
  readonly #agent: Agent;
  readonly #maxAttempts: number;
  readonly #timeoutMs: number;
  #nextId = 1;

  constructor(url: string, options: FleetClientOptions) {
    this.#url = new URL(url);
    this.#agent = new Agent({ keepAlive: true, maxSockets: options.sockets });
    this.#maxAttempts = options.maxAttempts ?? 10;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
  }

  close(): void {
    this.#agent.destroy();
  }

  /** Runs `tool` from its first call to its final result. */
  async runFlow(tool: string, args: Record<string, unknown>, replies: Record<string, unknown>): Promise<FlowRecord> {
    const rounds: RoundRecord[] = [];
    let round: { requestState?: string; inputResponses?: Record<string, unknown> } = {};
    for (let index = 0; index < 10; index += 1) {
      let outcome;
      try {
        outcome = await this.#round(tool, args, round);
      } catch (error) {
        if (!(error instanceof RoundRefused)) throw error;
        rounds.push(error.record);
        return { tool, args, rounds, result: {}, refusal: error.reason };
      }
      const { answer, record } = outcome;
      rounds.push(record);
      const result = answer.body.result;
      if (result.resultType !== 'input_required') return { tool, args, rounds, result };
      round = { requestState: result.requestState, inputResponses: answerForms(result.inputRequests, replies) };
    }
    throw new Error(`${tool} ${JSON.stringify(args)}: still asking after 10 rounds`);
  }

  async #round(
    tool: string,
    args: Record<string, unknown>,
    round: { requestState?: string; inputResponses?: Record<string, unknown> },
  ): Promise<{ answer: Answer; record: RoundRecord }> {
    const failures: string[] = [];
    const effect = Object.values(round.inputResponses ?? {}).some(
      (response: any) => response?.action === 'accept' && response.content?.confirm === true,
    );
    for (let attempt = 1; attempt <= this.#maxAttempts; attempt += 1) {
      const message = {
        jsonrpc: '2.0',
        id: this.#nextId++,
        method: 'tools/call',
        params: { name: tool, arguments: args, ...round, _meta: requestMeta({ elicitation: {} }) },
      };
      let answer: Answer;
      try {
        answer = await this.#post(message);
      } catch {
        failures.push('connection');
        await delay(20 * attempt);
        continue;
      }
      if (RETRYABLE_STATUS.has(answer.status)) {
        failures.push(String(answer.status));
        await delay(20 * attempt);
        continue;
      }
      const error = answer.body?.error;
      if (error?.code === -32602 && /being processed/.test(error.message)) {
        failures.push('in_use');
        await delay(50 * attempt);
        continue;
      }
      if (error?.code === -32602 && error.data?.reason === 'request_state_used') {
        throw new RoundRefused(error.data.reason, {
          instance: answer.instance,
          failures,
          effect,
          answeredAt: Date.now(),
        });
      }
      if (answer.status !== 200 || error || !answer.body?.result) {
        throw new Error(`${tool} round ${JSON.stringify(round).slice(0, 80)}…: HTTP ${answer.status} ${answer.text}`);
      }
      return { answer, record: { instance: answer.instance, failures, effect, answeredAt: Date.now() } };
    }
    throw new Error(`${tool} ${JSON.stringify(args)}: a round failed ${this.#maxAttempts} times (${failures})`);
  }

  #post(message: { method: string; params: Record<string, any> }): Promise<Answer> {
    const body = JSON.stringify(message);
    return new Promise((resolve, reject) => {
      const req = request(
        this.#url,
        {
          method: 'POST',
          agent: this.#agent,
          headers: { ...standardHeaders(message), 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('error', reject);
          res.on('end', () => {
            let parsed: any;
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = undefined;
            }
            resolve({ status: res.statusCode!, instance: String(res.headers['baton-instance']), body: parsed, text });
          });
        },
      );
      req.setTimeout(this.#timeoutMs, () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(body);
    });
  }
}

/** Accepts every form question, filling each field of its schema from `replies`. */
export function answerForms(inputRequests: Record<string, any>, replies: Record<string, unknown>) {
  const responses: Record<string, unknown> = {};
  for (const [key, inputRequest] of Object.entries(inputRequests)) {
    const fields = Object.keys(inputRequest.params?.requestedSchema?.properties ?? {});
    const content: Record<string, unknown> = {};
    for (const field of fields) {
      if (!(field in replies)) throw new Error(`no reply for field "${field}"`);
      content[field] = replies[field];
    }
    responses[key] = { action: 'accept', content };
  }
  return responses;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
