/**
 * Every JSON-RPC error code Baton sends, with its meaning and its HTTP status. This table is the
 * single source of truth: docs/errors.md documents it and test/protocol/error-catalogue.test.ts
 * keeps the two in step. Codes -32020..-32022 are MCP 2026-07-28's own (spec, basic "Error Codes").
 * Baton's own code sits outside the JSON-RPC reserved range (-32768..-32000), as the spec asks of
 * codes for purposes it does not define, so -32603 is left to mean a bug and nothing else.
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  LimitExceeded: -31000,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface CatalogueEntry {
  code: ErrorCode;
  name: keyof typeof ErrorCode;
  /** HTTP status on Streamable HTTP. The spec fixes 400 and 404; the rest follow the reference SDK. */
  httpStatus: number;
  when: string;
}

export const errorCatalogue: readonly CatalogueEntry[] = [
  { code: -32700, name: 'ParseError', httpStatus: 400, when: 'The body is not valid JSON (the response has no id).' },
  {
    code: -32600,
    name: 'InvalidRequest',
    httpStatus: 400,
    when: 'The body is not one JSON-RPC 2.0 request: a batch, a response, a null or fractional id, a missing method.',
  },
  {
    code: -32601,
    name: 'MethodNotFound',
    httpStatus: 404,
    when: 'Unknown method, or one removed in 2026-07-28 (initialize, ping, logging/setLevel, resources/subscribe…).',
  },
  {
    code: -32602,
    name: 'InvalidParams',
    httpStatus: 200,
    when: 'Malformed params, unknown tool, bad cursor, malformed inputResponses, or an invalid or expired requestState. HTTP 400 when params._meta or one of its required keys is missing.',
  },
  {
    code: -32603,
    name: 'InternalError',
    httpStatus: 200,
    when: 'A bug on the server side; the details go to the log only.',
  },
  {
    code: -32020,
    name: 'HeaderMismatch',
    httpStatus: 400,
    when: 'MCP-Protocol-Version, Mcp-Method, Mcp-Name or the Mcp-Param-* header of an x-mcp-header parameter is missing, differs from the body, or holds invalid characters.',
  },
  {
    code: -32021,
    name: 'MissingRequiredClientCapability',
    httpStatus: 400,
    when: 'The tool must ask a question of a kind the request did not declare; data.requiredCapabilities says which.',
  },
  {
    code: -32022,
    name: 'UnsupportedProtocolVersion',
    httpStatus: 400,
    when: 'The request names a protocol version Baton does not serve; data lists supported and requested.',
  },
  {
    code: -31000,
    name: 'LimitExceeded',
    httpStatus: 429,
    when: 'A documented limit refuses the request before it runs: 429 when the limit is per caller, 503 when it is the whole instance, both with Retry-After; data.reason names the limit.',
  },
];

export function httpStatusOf(code: number): number {
  return errorCatalogue.find((entry) => entry.code === code)?.httpStatus ?? 200;
}
