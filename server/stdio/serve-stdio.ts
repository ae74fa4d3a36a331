/**
 * The stdio transport: newline-delimited JSON-RPC on a pair of streams (a process's stdin and
 * stdout), on top of the same transport-agnostic dispatcher as HTTP.
 *
 * - Stateless like HTTP: the process is not a session. Requests run concurrently and their
 *   answers interleave; everything is keyed by request id (spec, transports "stdio").
 * - Only MCP messages go to `output`: responses and the notifications of a request in flight
 *   (progress, when the request carried a progressToken). Logs go to the logger (stderr).
 * - `notifications/cancelled {requestId}` aborts that request, and nothing more is written for it
 *   (spec, basic/utilities/cancellation: MUST NOT send a response after cancelling). Unknown,
 *   finished or malformed cancellations are ignored.
 * - There are no headers, so no header checks; the principal comes from the environment.
 * - End of input: the requests in flight finish and are answered, then `closed` resolves
 *   (spec: exit promptly on stdin EOF). Work still running after `drainTimeoutMs` is aborted.
 */
import type { Readable, Writable } from 'node:stream';
import { Cancellation, silentLogger, type Logger } from '../engine/index.js';
import {
  ErrorCode,
  errorResponse,
  parseJson,
  PreparedNotification,
  ProtocolError,
  readableId,
  type LegacyService,
  type McpDispatcher,
  type Principal,
  type RequestId,
} from '../protocol/index.js';
import { LegacyStdio } from './legacy-stdio.js';
import { requestIdForTelemetry } from '../telemetry/index.js';
import { LineSplitter, type Line } from './line-splitter.js';
import { STDIO_PRINCIPAL } from './stdio-principal.js';

/** What `serveStdio` takes: the service's dispatcher, the two streams, and limits. */
export interface StdioOptions {
  dispatcher: McpDispatcher;
  input: Readable;
  output: Writable;
  logger?: Logger;
  /** Who is calling; the CLI takes it from the environment (`principalFromEnvironment`). */
  principal?: Principal;
  /** The longest line read, in bytes (default 1 MiB, as the HTTP body limit). */
  maxLineBytes?: number;
  /** Requests in flight before reading pauses, so a flood waits instead of piling up (default 64). */
  maxInFlight?: number;
  /** How long requests in flight may still run after the input ends (default 30 s, a round's budget). */
  drainTimeoutMs?: number;
  /** Serves 2025-11-25 clients (initialize, questions as server-to-client requests) too. */
  legacy?: LegacyService | undefined;
}

/** One stdio connection: when it has closed, and how to close it. */
export interface StdioConnection {
  /** Resolves once the input has ended and every request in flight is answered or aborted. */
  readonly closed: Promise<void>;
  /** Stops reading and aborts every request in flight (nothing more is written for them). */
  close(): Promise<void>;
}

export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

/**
 * Serves MCP over stdio: newline-delimited JSON-RPC read from `input`, answers written to
 * `output` (only MCP messages: logs go to the logger). Give it `createMcpService(…).dispatcher`.
 */
export function serveStdio(options: StdioOptions): StdioConnection {
  const { dispatcher, input, output } = options;
  const logger = options.logger ?? silentLogger;
  const principal = options.principal ?? STDIO_PRINCIPAL;
  const maxInFlight = options.maxInFlight ?? 64;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const splitter = new LineSplitter(maxLineBytes);
  const legacy = options.legacy ? new LegacyStdio(options.legacy, principal, write, logger) : undefined;
  const inFlight = new Map<RequestId, AbortController>();
  /** Requests in flight that turned long-lived (listen streams): they do not pause reading. */
  let longLived = 0;
  const working = () => inFlight.size - longLived;
  /** Messages still being dispatched, requests and notifications alike. */
  let pending = 0;
  let inputEnded = false;
  let outputBroken = false;
  let drainTimer: NodeJS.Timeout | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  function write(message: unknown): void {
    if (outputBroken) return;
    if (message instanceof PreparedNotification) {
      const [head, shared, tail] = message.parts();
      output.write(head);
      output.write(shared);
      output.write(`${tail}\n`);
      return;
    }
    // JSON.stringify escapes every newline inside strings, so a message is always one line.
    output.write(`${JSON.stringify(message)}\n`);
  }

  function abortAll(reason: string): void {
    for (const controller of inFlight.values()) controller.abort(new Error(reason));
    legacy?.close();
  }

  /** After each message: resume reading if a flood paused it; at end of input, close when idle. */
  function settle(): void {
    if (!inputEnded) {
      if (input.isPaused() && working() < maxInFlight) input.resume();
      return;
    }
    if (pending > 0) return;
    clearTimeout(drainTimer);
    input.off('data', onData);
    resolveClosed();
  }

  async function handle(message: unknown): Promise<void> {
    // A request (id and method) gets its own abort controller; anything else is answered at once.
    const id = typeof (message as { method?: unknown } | null)?.method === 'string' ? readableId(message) : undefined;
    let controller: AbortController | undefined;
    if (id !== undefined) {
      if (inFlight.has(id)) {
        // Answering with this id would be read as the answer to the request already running.
        logger.warn('stdio_duplicate_id', { id: requestIdForTelemetry(id) });
        write(errorResponse(undefined, invalidRequest('a request with this id is still in flight')));
        return;
      }
      controller = new AbortController();
      inFlight.set(id, controller);
      if (working() >= maxInFlight) input.pause();
    }
    const signal = controller?.signal ?? new AbortController().signal;
    let left = false;
    try {
      const outcome = await dispatcher.dispatch(message, {
        principal,
        cancellation: Cancellation.following(signal),
        notify: (notification) => {
          if (!signal.aborted) write(notification);
        },
        // A long-lived request must not keep reading paused: its cancellation arrives as input.
        leaveRequestGate: () => {
          if (left || !controller) return;
          left = true;
          longLived += 1;
          settle();
        },
      });
      if (outcome.type === 'notification') cancelFrom(outcome.notification);
      else if (outcome.type === 'response' && !signal.aborted) write(outcome.response);
    } finally {
      if (controller) inFlight.delete(id!);
      if (left) longLived -= 1;
    }
  }

  function cancelFrom(notification: { method: string; params?: Record<string, unknown> }): void {
    if (notification.method !== 'notifications/cancelled') return;
    const requestId = notification.params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const controller = inFlight.get(requestId);
    if (!controller) return;
    logger.info('stdio_request_cancelled', { id: requestIdForTelemetry(requestId) });
    controller.abort(new Error('cancelled by the client'));
  }

  function onLine(line: Line): void {
    if (line.kind === 'oversize') {
      logger.warn('stdio_line_too_long', { bytes: line.bytes });
      write(errorResponse(undefined, invalidRequest(`a message is longer than ${maxLineBytes} bytes`)));
      return;
    }
    let message: unknown;
    try {
      message = parseJson(line.text);
    } catch (error) {
      // -32700 carries no id: an unparseable line has none we could trust. A line refused for its
      // shape after parsing answers the id it carried.
      write(errorResponse((error as ProtocolError).requestId, error as ProtocolError));
      return;
    }
    pending += 1;
    // The 2025-11-25 wire (initialize, then a session) goes to its own layer (legacy-stdio.ts).
    (legacy?.claims(message) ? legacy.handle(message, line.text) : handle(message))
      .catch((error: unknown) => logger.error('stdio_dispatch_failed', { error: String(error) }))
      .finally(() => {
        pending -= 1;
        settle();
      });
  }

  function onData(chunk: Buffer | string): void {
    for (const line of splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) onLine(line);
  }

  /** End of input; `flush` reads a last line that had no newline (not when closing by force). */
  function onEnd(flush = true): void {
    if (inputEnded) return;
    if (flush) for (const line of splitter.end()) onLine(line);
    inputEnded = true;
    if (pending > 0) {
      drainTimer = setTimeout(() => {
        logger.warn('stdio_drain_timeout', { inFlight: [...inFlight.keys()] });
        abortAll('the input ended and the drain time ran out');
      }, options.drainTimeoutMs ?? 30_000);
      drainTimer.unref();
    }
    settle();
  }

  output.on('error', (error: Error) => {
    // The client stopped reading (EPIPE): nobody can receive answers any more.
    if (outputBroken) return;
    outputBroken = true;
    logger.warn('stdio_output_closed', { error: error.message });
    input.pause();
    onEnd(false);
    abortAll('the output closed');
  });
  input.on('data', onData);
  input.once('end', () => onEnd());
  input.once('error', (error: Error) => {
    logger.warn('stdio_input_failed', { error: error.message });
    onEnd();
  });

  return {
    closed,
    close() {
      input.pause();
      onEnd(false);
      abortAll('the transport closed');
      return closed;
    },
  };
}

function invalidRequest(why: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidRequest, `Invalid Request: ${why}`);
}
