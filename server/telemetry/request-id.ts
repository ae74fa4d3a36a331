/**
 * A JSON-RPC request id as telemetry records it (`jsonrpc.request.id`, a log field). The id is the
 * client's text, as long as the body allows (1 MiB): recorded whole, every span of a request would
 * carry it to the exporter's queue, and an unreachable collector would hold them all. So an id
 * longer than MAX_REQUEST_ID_LENGTH keeps its start and is marked as shortened.
 */

/** Characters of an id kept on a span or in a log line; real clients send a counter or a UUID. */
export const MAX_REQUEST_ID_LENGTH = 128;

/** Appended to a shortened id, so it is never taken for the whole. */
export const SHORTENED_MARK = '…[truncated]';

export function requestIdForTelemetry(id: string | number): string {
  const text = String(id);
  return text.length <= MAX_REQUEST_ID_LENGTH ? text : text.slice(0, MAX_REQUEST_ID_LENGTH) + SHORTENED_MARK;
}
