/**
 * Serves clients of the older, stateful wire (spec 2025-11-25: `initialize`, sessions,
 * server-to-client requests) with the very handlers and machines of the 2026-07-28 core: tools,
 * prompts, resources and completion run through `McpDispatcher.method`, and a flow's questions
 * become `elicitation/create`, `sampling/createMessage` or `roots/list` requests on the call's own
 * stream (engine/live-flow.ts). Only what the older wire has and the new one dropped lives here:
 * the handshake, `ping`, `logging/setLevel`, `resources/subscribe`, and the shapes of results.
 * Nothing here changes how a 2026-07-28 request is served.
 */
import { randomBytes } from 'node:crypto';
import {
  Cancellation,
  DEFAULT_STATE_TTL_SECONDS,
  isLoggingLevel,
  isRecord,
  LOGGING_LEVELS,
  runLiveFlow,
  type FlowDefinition,
  type InputRequest,
  type KeyRing,
  type LiveAnswers,
  type LogReport,
  type Logger,
} from '../../engine/index.js';
import { toWireError } from '../engine-errors.js';
import { ErrorCode } from '../error-catalogue.js';
import {
  errorResponse,
  readableId,
  resultResponse,
  toIncomingMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../json-rpc.js';
import type { McpDispatcher } from '../mcp-dispatcher.js';
import { CANCELLED, type MethodContext, type MethodResult } from '../method-context.js';
import type { Principal } from '../principal.js';
import { invalidParams, methodNotFound, ProtocolError } from '../protocol-error.js';
import { callerKey, LongLivedBudget, type Release } from '../long-lived-budget.js';
import { limitExceeded } from '../limit-exceeded.js';
import { sessionCapabilities } from './session-capabilities.js';
import { PreparedNotification } from '../prepared-notification.js';
import { META } from '../request-meta.js';
import { InsufficientScope } from '../scope-policy.js';
import { isJsonRpcResponse } from './legacy-message.js';
import { LegacySession, type ClientAnswer, type Send } from './legacy-session.js';
import { negotiateLegacyVersion } from './legacy-versions.js';
import { openSession, sealSession, type SessionTokenOptions } from './session-token.js';

/** The methods both wires share: the same handler serves either. */
const SHARED_METHODS = new Set([
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
]);

export interface LegacyServiceOptions {
  dispatcher: McpDispatcher;
  keyRing: KeyRing;
  logger: Logger;
  clock?: () => number;
  randomBytes?: (length: number) => Uint8Array;
  /** Lifetime of a session id, in seconds (24 hours). */
  sessionTtlSeconds?: number;
  /** How long a question waits for the client's answer, in milliseconds (5 minutes). */
  answerTimeoutMs?: number;
  /**
   * The engine's default state lifetime, in seconds: a question never waits longer than the sealed
   * state it resumes from would live (a flow's own `stateTtlSeconds` wins).
   */
  stateTtlSeconds?: number;
  /** Sent in the initialize result, as in server/discover. */
  instructions?: string;
  /** Sessions whose live state one instance keeps at once; the oldest idle ones go first (10 000). */
  maxSessions?: number;
  /** Calls waiting for their client's answer count here, not in the request gate (long-lived-budget.ts). */
  longLived?: LongLivedBudget;
  /** Sessions one caller may have live in this instance at once (32); its oldest idle one goes first. */
  maxSessionsPerClient?: number;
  /** Resource subscriptions one session may hold (16). */
  maxSubscriptionsPerSession?: number;
  /** Whether this server serves a resource URI: only those may be subscribed to. */
  resourceExists?: (uri: string) => boolean;
}

/** A subscribed URI is kept in the session: longer ones are refused. */
const MAX_SUBSCRIBED_URI_LENGTH = 2048;

/** One message's context: who sent it, its abort signal, and its response stream. */
export interface LegacyContext {
  principal: Principal;
  signal: AbortSignal;
  send: Send;
  /** Gives back the request's slot in the transport's request gate (HTTP); unset on stdio. */
  leaveRequestGate?: () => void;
}

export type LegacyOutcome =
  /** `insufficientScope`: the scopes a refused operation needs (HTTP: 403 with the challenge). */
  | { type: 'response'; response: JsonRpcResponse; insufficientScope?: readonly string[] }
  /** A notification, or a response to a question: nothing to answer (HTTP 202). */
  | { type: 'accepted' }
  /** A response nobody waits for (answered already, timed out, or asked by another instance). */
  | { type: 'unmatched'; response: JsonRpcResponse }
  | { type: 'cancelled' };

export const DEFAULT_SESSION_TTL_SECONDS = 24 * 60 * 60;
export const DEFAULT_ANSWER_TIMEOUT_MS = 5 * 60 * 1000;

export class LegacyService {
  readonly #dispatcher: McpDispatcher;
  readonly #logger: Logger;
  readonly #tokens: SessionTokenOptions;
  readonly #answerTimeoutMs: number;
  readonly #stateTtlSeconds: number;
  readonly #maxSessions: number;
  readonly #instructions: string | undefined;
  readonly #longLived: LongLivedBudget;
  readonly #maxSessionsPerClient: number;
  readonly #maxSubscriptions: number;
  readonly #resourceExists: (uri: string) => boolean;
  readonly #sessions = new Map<string, LegacySession>();
  /** Sessions ended by DELETE, until their token would have expired anyway. */
  readonly #ended = new Map<string, number>();

  /** Sessions this instance holds in memory (the `baton.legacy.sessions` gauge). */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  constructor(options: LegacyServiceOptions) {
    this.#dispatcher = options.dispatcher;
    this.#logger = options.logger;
    this.#tokens = {
      keyRing: options.keyRing,
      clock: options.clock ?? Date.now,
      randomBytes: options.randomBytes ?? ((length) => randomBytes(length)),
      ttlSeconds: options.sessionTtlSeconds ?? DEFAULT_SESSION_TTL_SECONDS,
    };
    this.#answerTimeoutMs = options.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
    this.#stateTtlSeconds = options.stateTtlSeconds ?? DEFAULT_STATE_TTL_SECONDS;
    this.#maxSessions = options.maxSessions ?? 10_000;
    this.#instructions = options.instructions;
    this.#longLived = options.longLived ?? new LongLivedBudget();
    this.#maxSessionsPerClient = options.maxSessionsPerClient ?? 32;
    this.#maxSubscriptions = options.maxSubscriptionsPerSession ?? 16;
    this.#resourceExists = options.resourceExists ?? (() => false);
  }

  /**
   * `initialize` (spec 2025-11-25, basic/lifecycle): negotiates the version and opens a session.
   * `token` is the session id for HTTP; stdio keeps the returned session for its connection.
   */
  initialize(
    message: JsonRpcRequest,
    principal: Principal,
  ): { response: JsonRpcResponse; token?: string; session?: LegacySession; httpStatus?: number } {
    const params = message.params ?? {};
    const { protocolVersion, capabilities, clientInfo } = params;
    if (typeof protocolVersion !== 'string' || !isRecord(capabilities) || !isRecord(clientInfo)) {
      const error = invalidParams('Invalid params: initialize needs protocolVersion, capabilities and clientInfo');
      return { response: errorResponse(message.id, error) };
    }
    const settled = {
      protocolVersion: negotiateLegacyVersion(protocolVersion),
      clientCapabilities: sessionCapabilities(capabilities),
    };
    const owner = callerKey(principal);
    if (!this.#roomFor(owner)) {
      const error = limitExceeded(
        'legacy_sessions',
        `Too many sessions: this client has ${this.#maxSessionsPerClient} busy ones, its limit; end one (DELETE) and retry`,
        'client',
        { limit: this.#maxSessionsPerClient },
      );
      return { response: errorResponse(message.id, error), httpStatus: error.httpStatus };
    }
    const { token, claims } = sealSession(principal.id, settled, this.#tokens);
    const session = this.#live(claims.id, settled.protocolVersion, settled.clientCapabilities, owner);
    const { name, version, title } = this.#dispatcher.serverInfo;
    const instructions = this.#instructions;
    const response = resultResponse(message.id, {
      protocolVersion: settled.protocolVersion,
      capabilities: this.capabilities(),
      serverInfo: { name, version, ...(title ? { title } : {}) },
      ...(instructions ? { instructions } : {}),
    });
    const client = typeof clientInfo.name === 'string' ? clientInfo.name.slice(0, 100) : undefined;
    this.#logger.info('legacy_session_opened', { version: settled.protocolVersion, client });
    return { response, token, session };
  }

  /** What this server offers on the older wire: the core's capabilities, logging and subscriptions. */
  capabilities(): Record<string, unknown> {
    // Extensions (tasks) are negotiated per request in 2026-07-28 only.
    const { extensions: _extensions, ...core } = this.#dispatcher.capabilities();
    // The catalogue is fixed for the life of a process: no listChanged is promised.
    return { ...core, logging: {}, ...(core.resources ? { resources: { subscribe: true } } : {}) };
  }

  /** The session a token names, or undefined when it is unknown, expired, ended or someone else's. */
  session(token: string, principal: Principal): LegacySession | undefined {
    const claims = openSession(token, principal.id, this.#tokens);
    if (!claims || this.#ended.has(claims.id)) return undefined;
    return this.#live(claims.id, claims.protocolVersion, claims.clientCapabilities, callerKey(principal));
  }

  /** DELETE (spec 2025-11-25, transports "Session Management"): the session's work stops; its id is refused. */
  endSession(
    session: LegacySession,
    expiresAt = Math.floor(this.#tokens.clock() / 1000) + this.#tokens.ttlSeconds,
  ): void {
    session.end();
    this.#sessions.delete(session.id);
    const now = Math.floor(this.#tokens.clock() / 1000);
    for (const [id, until] of this.#ended) if (until <= now) this.#ended.delete(id);
    this.#ended.set(session.id, expiresAt);
  }

  /** Tells every subscribed session served here that a resource changed (`notifications/resources/updated`). */
  resourceUpdated(uri: string): void {
    for (const session of this.#sessions.values()) {
      if (session.subscriptions.has(uri)) {
        session.standalone?.({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
      }
    }
  }

  /** One message of a session: a request, a notification, or the client's response to a question. */
  async handle(session: LegacySession, message: unknown, context: LegacyContext): Promise<LegacyOutcome> {
    if (isJsonRpcResponse(message)) return this.#answer(session, message);
    let id = readableId(message);
    try {
      const incoming = toIncomingMessage(message);
      if (!('id' in incoming)) {
        if (incoming.method === 'notifications/cancelled') session.cancel(incoming.params?.requestId);
        // notifications/initialized and roots/list_changed need nothing: roots are asked afresh.
        return { type: 'accepted' };
      }
      id = incoming.id;
      const controller = session.begin(incoming.id, context.signal);
      if (!controller)
        throw new ProtocolError(ErrorCode.InvalidRequest, 'Invalid Request: a request with this id is in flight');
      try {
        const result = await this.#request(session, incoming, { ...context, signal: controller.signal });
        if (result === CANCELLED || controller.signal.aborted) return { type: 'cancelled' };
        return { type: 'response', response: resultResponse(incoming.id, toLegacyResult(result)) };
      } finally {
        session.finish(incoming.id, controller);
      }
    } catch (error) {
      const wire = this.#wireError(error, message);
      const response = errorResponse(id, wire);
      return wire instanceof InsufficientScope
        ? { type: 'response', response, insufficientScope: wire.scopes }
        : { type: 'response', response };
    }
  }

  async #request(
    session: LegacySession,
    request: JsonRpcRequest,
    context: LegacyContext,
  ): Promise<MethodResult | typeof CANCELLED> {
    const params = request.params ?? {};
    switch (request.method) {
      case 'initialize':
        throw new ProtocolError(ErrorCode.InvalidRequest, 'Invalid Request: this session is already initialized');
      case 'ping':
        return {};
      case 'logging/setLevel':
        if (!isLoggingLevel(params.level)) {
          throw invalidParams(`Invalid params: level must be one of ${LOGGING_LEVELS.join(', ')}`);
        }
        session.logLevel = params.level;
        return {};
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        if (!this.#dispatcher.capabilities().resources) throw methodNotFound(request.method);
        if (typeof params.uri !== 'string') throw invalidParams('Invalid params: uri must be a string');
        if (request.method === 'resources/unsubscribe') session.subscriptions.delete(params.uri);
        else this.#subscribe(session, params.uri);
        return {};
    }
    const spec = SHARED_METHODS.has(request.method) ? this.#dispatcher.method(request.method) : undefined;
    if (!spec) throw methodNotFound(request.method);
    const { requestState: _state, inputResponses: _responses, ...own } = params;
    const progressToken = isRecord(params._meta) ? params._meta.progressToken : undefined;
    // Taken at the call's first question, held until the call ends: a call waiting on its client
    // is long-lived, and counts in the long-lived budget instead of the request gate.
    let waiting: Release | undefined;
    const holdWhileWaiting = () => {
      if (waiting) return;
      const slot = this.#longLived.acquire('waiting_calls', context.principal);
      if (slot instanceof ProtocolError) throw slot;
      waiting = slot;
      context.leaveRequestGate?.();
    };
    const method: MethodContext = {
      id: request.id,
      method: request.method,
      params: own,
      meta: {
        protocolVersion: session.protocolVersion,
        clientCapabilities: session.clientCapabilities,
        ...(typeof progressToken === 'string' || typeof progressToken === 'number' ? { progressToken } : {}),
      },
      principal: context.principal,
      cancellation: Cancellation.following(context.signal),
      notify: (notification) => {
        if (context.signal.aborted) return;
        context.send(
          notification instanceof PreparedNotification
            ? (notification.toJSON() as Record<string, unknown>)
            : { jsonrpc: '2.0', ...notification },
        );
      },
      runFlow: (engine, call) =>
        runLiveFlow(engine, { ...call, onLog: (report) => this.#log(session, report, context) }, (requests) => {
          holdWhileWaiting();
          return this.#ask(session, requests, context, call.flow);
        }),
    };
    try {
      return await spec.handle(method);
    } finally {
      waiting?.();
    }
  }

  /**
   * Sends one round of questions as server-to-client requests on the call's stream and waits for
   * every answer. An error answer to a form or URL question is the user not answering (cancel);
   * to sampling or roots it fails the call, as the client has nothing else to say.
   */
  async #ask(
    session: LegacySession,
    requests: Record<string, InputRequest>,
    context: LegacyContext,
    flow: FlowDefinition,
  ): Promise<LiveAnswers> {
    const timeoutMs = Math.min(this.#answerTimeoutMs, (flow.stateTtlSeconds ?? this.#stateTtlSeconds) * 1000);
    const asked = Object.entries(requests).map(([key, request]) => {
      const id = `baton-${Buffer.from(this.#tokens.randomBytes(9)).toString('base64url')}`;
      // A URL elicitation carries an id of its own on this wire (spec 2025-11-25, client/elicitation).
      const params =
        request.method === 'elicitation/create' && request.params?.mode === 'url'
          ? { ...request.params, elicitationId: id }
          : request.params;
      const answer = session.expect(id, context.signal, timeoutMs);
      context.send({ jsonrpc: '2.0', id, method: request.method, ...(params ? { params } : {}) });
      return { key, request, id, answer };
    });
    const responses: Record<string, unknown> = {};
    const giveUp = (outcome: LiveAnswers): LiveAnswers => {
      for (const { id } of asked) {
        session.forget(id);
        if (outcome.kind === 'failed' && !context.signal.aborted) {
          context.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
        }
      }
      return outcome;
    };
    for (const { key, request, answer } of asked) {
      const answered: ClientAnswer = await answer;
      if (answered.kind === 'aborted') return giveUp({ kind: 'aborted' });
      if (answered.kind === 'timeout') {
        const seconds = Math.round(timeoutMs / 1000);
        return giveUp({
          kind: 'failed',
          message: `${flow.name} got no answer to ${request.method} within ${seconds} s.`,
        });
      }
      if (answered.kind === 'result') {
        responses[key] = answered.result;
      } else if (request.method === 'elicitation/create') {
        responses[key] = { action: 'cancel' };
      } else {
        const reason = typeof answered.error.message === 'string' ? `: ${answered.error.message}` : '';
        return giveUp({
          kind: 'failed',
          message: `${flow.name} could not go on: the client refused ${request.method}${reason}`,
        });
      }
    }
    return { kind: 'answers', responses };
  }

  /** A machine's log report, as `notifications/message` at or above the session's level. */
  #log(session: LegacySession, report: LogReport, context: LegacyContext): void {
    const threshold = session.logLevel ? LOGGING_LEVELS.indexOf(session.logLevel) : 0;
    if (LOGGING_LEVELS.indexOf(report.level) < threshold || context.signal.aborted) return;
    context.send({ jsonrpc: '2.0', method: 'notifications/message', params: { ...report } });
  }

  #answer(session: LegacySession, message: Record<string, unknown>): LegacyOutcome {
    const answer: ClientAnswer =
      'error' in message
        ? { kind: 'error', error: isRecord(message.error) ? message.error : {} }
        : { kind: 'result', result: message.result };
    if (session.deliver(message.id, answer)) return { type: 'accepted' };
    const error = new ProtocolError(
      ErrorCode.InvalidRequest,
      'Invalid Request: no request is waiting for this response',
    );
    return { type: 'unmatched', response: errorResponse(undefined, error) };
  }

  /**
   * Only resources this server serves (spec 2025-11-25, server/resources: the server SHOULD check
   * the URI), at most maxSubscriptionsPerSession of them: a session's subscriptions live in memory.
   */
  #subscribe(session: LegacySession, uri: string): void {
    if (session.subscriptions.has(uri)) return;
    if (uri.length > MAX_SUBSCRIBED_URI_LENGTH || !this.#resourceExists(uri)) {
      throw invalidParams('Resource not found', { uri: uri.slice(0, 200) });
    }
    if (session.subscriptions.size >= this.#maxSubscriptions) {
      throw limitExceeded(
        'resource_subscriptions',
        `Too many subscriptions: this session holds ${this.#maxSubscriptions}, its limit; unsubscribe from one first`,
        'client',
        { limit: this.#maxSubscriptions },
      );
    }
    session.subscriptions.add(uri);
  }

  /** Whether `owner` may open one more session here, after letting its oldest idle ones go. */
  #roomFor(owner: string): boolean {
    const mine = [...this.#sessions.values()].filter((session) => session.owner === owner);
    for (const old of mine) {
      if (mine.length < this.#maxSessionsPerClient) break;
      if (!old.idle) continue;
      this.#sessions.delete(old.id);
      mine.splice(mine.indexOf(old), 1);
    }
    return mine.length < this.#maxSessionsPerClient;
  }

  #live(id: string, protocolVersion: string, capabilities: Record<string, unknown>, owner: string): LegacySession {
    let session = this.#sessions.get(id);
    if (session) {
      // Most recently used last, so the oldest idle sessions are dropped first.
      this.#sessions.delete(id);
      this.#sessions.set(id, session);
      return session;
    }
    session = new LegacySession(id, protocolVersion, capabilities, owner);
    this.#sessions.set(id, session);
    if (this.#sessions.size > this.#maxSessions) {
      for (const [oldId, old] of this.#sessions) {
        if (this.#sessions.size <= this.#maxSessions) break;
        if (old.idle) this.#sessions.delete(oldId);
      }
    }
    return session;
  }

  #wireError(error: unknown, message: unknown): ProtocolError {
    return toWireError(error, (unexpected) => {
      const method = (message as { method?: unknown } | null)?.method;
      this.#logger.error('request_failed', { method, error: String((unexpected as Error)?.stack ?? unexpected) });
    });
  }
}

/** A core result on the older wire: no `resultType`, no caching hints, serverInfo only in initialize. */
export function toLegacyResult(result: MethodResult): Record<string, unknown> {
  const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, _meta, ...rest } = result;
  const { [META.serverInfo]: _serverInfo, ...meta } = (isRecord(_meta) ? _meta : {}) as Record<string, unknown>;
  return { ...rest, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) };
}
