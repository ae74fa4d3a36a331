/**
 * One hostile request and how its answer is judged. A category passes when none of its answers
 * is a 5xx, a hang, a dropped connection (where the request was well-framed HTTP), a non-JSON-RPC
 * body from the MCP endpoint, a JSON-RPC -32603 (a server-side bug), or a completed effect
 * reached by an attack.
 */
import { headersFor, isRecord } from '../../test/helpers/hostile-messages.js';
import { buildRequest, type Outcome, type RawRequest } from './raw-http.js';

export interface Attack {
  label: string;
  bytes: Buffer;
  /** The answer must be a JSON-RPC message (202, 405 and 413 included: Baton writes those). */
  expectJson: boolean;
  /** Malformed framing or an oversized body: the server may drop the connection instead of answering. */
  mayDrop?: boolean;
  /** The answer must not report a finished release: an attack must never reach the deployment. */
  noEffect?: boolean;
  /** A stalling client: running into the client timeout is the expected end. */
  mayTimeOut?: boolean;
  timeoutMs?: number;
  headRequest?: boolean;
  /** More bytes sent after delays (a client trickling its body). */
  later?: Array<{ afterMs: number; bytes: Buffer }>;
}

export type FindingKind =
  | '5xx'
  | 'hang'
  | 'dropped'
  | 'refused'
  | 'malformed'
  | 'effect'
  | 'starved'
  | 'memory'
  | 'unbounded'
  | 'internal'
  | 'empty';

export interface Finding {
  kind: FindingKind;
  label: string;
  detail: string;
  request: string;
}

export interface Verdict {
  /** `200`, `400`, … or `timeout`, `closed`, `reset`, … for the status histogram. */
  status: string;
  findings: Finding[];
  /** The answer was JSON-RPC -32603: a bug on the server side by the catalogue's own words. */
  internalError: boolean;
  message?: any;
}

const DEFAULT_HEADERS: Array<[string, string]> = [
  ['Content-Type', 'application/json'],
  ['Accept', 'application/json, text/event-stream'],
];

/** A POST /mcp with the standard headers that match the body (where it parses), plus `extra`. */
export function mcpRequest(port: number, body: string | Buffer, extra: Array<[string, string]> = []): Buffer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body as Buffer).toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const standard = Object.entries(headersFor(parsed)).filter(([name]) => !/^(content-type|accept)$/i.test(name));
  const overridden = new Set(extra.map(([name]) => name.toLowerCase()));
  const headers = [...DEFAULT_HEADERS, ...standard].filter(([name]) => !overridden.has(name.toLowerCase()));
  return buildRequest(port, { headers: [...headers, ...extra], body });
}

export function rawRequest(port: number, request: RawRequest): Buffer {
  return buildRequest(port, request);
}

/** The final JSON-RPC message of an answer: the JSON body, or the last event of an SSE stream. */
export function jsonRpcOf(outcome: Extract<Outcome, { kind: 'response' }>): any | undefined {
  const text = outcome.body.toString('utf8');
  try {
    if ((outcome.headers['content-type'] ?? '').startsWith('text/event-stream')) {
      const events = text.split('\n').filter((line) => line.startsWith('data: '));
      return events.length ? JSON.parse(events[events.length - 1]!.slice(6)) : undefined;
    }
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function excerpt(bytes: Buffer, limit = 240): string {
  const text = bytes.toString('latin1');
  const shown = text.length > limit ? `${text.slice(0, limit)}… (${bytes.length} bytes)` : text;
  return JSON.stringify(shown);
}

export function judge(attack: Attack, outcome: Outcome): Verdict {
  const findings: Finding[] = [];
  const add = (kind: FindingKind, detail: string) =>
    findings.push({ kind, label: attack.label, detail, request: excerpt(attack.bytes) });
  if (outcome.kind !== 'response') {
    if (outcome.kind === 'refused') add('refused', 'connection refused: is the server still running?');
    else if (outcome.kind === 'timeout') {
      if (!attack.mayTimeOut) add('hang', outcome.detail);
    } else if (!attack.mayDrop) add('dropped', `${outcome.kind}: ${outcome.detail}`);
    return { status: outcome.kind, findings, internalError: false };
  }
  const status = String(outcome.status);
  // A 503 with Retry-After is Baton declining load on purpose (body budget, concurrency cap):
  // the honest checks beside the attacks judge whether others are still served.
  const busy = outcome.status === 503 && outcome.headers['retry-after'] !== undefined;
  if (outcome.status >= 500 && !busy) add('5xx', `${outcome.status} ${excerpt(outcome.body)}`);
  let message: any;
  if (attack.expectJson && outcome.status !== 202 && outcome.status < 500) {
    message = jsonRpcOf(outcome);
    const wellFormed =
      isRecord(message) &&
      message.jsonrpc === '2.0' &&
      (isRecord(message.result) ||
        (isRecord(message.error) && Number.isInteger(message.error.code) && typeof message.error.message === 'string'));
    if (!wellFormed) add('malformed', `${outcome.status} ${excerpt(outcome.body)}`);
  } else if (outcome.status !== 202) {
    message = jsonRpcOf(outcome);
  }
  if (attack.noEffect && message?.result?.structuredContent?.released === true) {
    add('effect', `an attack completed a release: ${excerpt(outcome.body)}`);
  }
  // -32603 is a bug on the server side by the catalogue's own words (a limit refuses with -31000):
  // a hostile request that reaches it found one.
  const internalError = message?.error?.code === -32603;
  if (internalError) add('internal', `-32603 ${excerpt(outcome.body)}`);
  return { status, findings, internalError, message };
}
