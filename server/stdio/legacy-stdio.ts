/**
 * The 2025-11-25 wire over stdio: the connection is the session (spec 2025-11-25,
 * basic/lifecycle), opened by `initialize`. Questions go out on stdout as server-to-client
 * requests; the client's responses come back on stdin. A 2026-07-28 request on the same
 * connection is still served by the stateless core (it names its revision in `_meta`).
 */
import {
  isJsonRpcResponse,
  isLegacyMessage,
  type LegacyService,
  type LegacySession,
  type Principal,
} from '../protocol/index.js';
import type { Logger } from '../engine/index.js';

export class LegacyStdio {
  #session: LegacySession | undefined;
  readonly #closing = new AbortController();

  constructor(
    private readonly legacy: LegacyService,
    private readonly principal: Principal,
    private readonly write: (message: unknown) => void,
    private readonly logger: Logger,
  ) {}

  /** Whether a message belongs to the older wire: an initialize, or anything without `_meta` once initialized. */
  claims(message: unknown): boolean {
    return isLegacyMessage(message, this.#session !== undefined);
  }

  /** Reads a response's result from the line (the envelope dropped it); anything else is the message. */
  handle(message: unknown, line: string): Promise<void> {
    // Only what is needed stays alive while the request runs, never the whole line.
    return this.#handle(isJsonRpcResponse(message) ? (JSON.parse(line) as unknown) : message);
  }

  async #handle(message: unknown): Promise<void> {
    if (!this.#session) {
      const opened = this.legacy.initialize(message as never, this.principal);
      this.#session = opened.session;
      // stdout carries messages that belong to no request too (resource updates).
      if (this.#session) this.#session.standalone = (outgoing) => this.write(outgoing);
      this.write(opened.response);
      return;
    }
    const outcome = await this.legacy.handle(this.#session, message, {
      principal: this.principal,
      signal: this.#closing.signal,
      send: (outgoing) => this.write(outgoing),
    });
    if (outcome.type === 'response') this.write(outcome.response);
    // A response nobody waits for has no id to answer on stdio; it is only logged.
    else if (outcome.type === 'unmatched') this.logger.warn('stdio_unmatched_response', {});
  }

  /** The transport closed: the session's work stops. */
  close(): void {
    this.#closing.abort();
    this.#session?.end();
  }
}
