/**
 * The only error that crosses the wire: a JSON-RPC error with its code, a one-sentence message,
 * optional data, and the HTTP status it travels with on Streamable HTTP.
 */
import { ErrorCode, httpStatusOf } from './error-catalogue.js';

export class ProtocolError extends Error {
  override name = 'ProtocolError';
  readonly httpStatus: number;

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    httpStatus?: number,
  ) {
    super(message);
    this.httpStatus = httpStatus ?? httpStatusOf(code);
  }

  /** The id of the request this error answers, when it is known before dispatch. */
  requestId?: string | number | undefined;

  /** The same error, answering a known request id. */
  answering(id: string | number | undefined): this {
    this.requestId = id;
    return this;
  }

  toJSON() {
    return { code: this.code, message: this.message, ...(this.data === undefined ? {} : { data: this.data }) };
  }
}

export const invalidParams = (message: string, data?: unknown) =>
  new ProtocolError(ErrorCode.InvalidParams, message, data);
export const methodNotFound = (method: string, data?: Record<string, unknown>, detail = '') =>
  new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}${detail}`, data);
export const headerMismatch = (message: string) => new ProtocolError(ErrorCode.HeaderMismatch, message);
