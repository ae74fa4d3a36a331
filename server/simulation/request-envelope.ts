/**
 * One request as a 2026-07-28 client writes it: JSON-RPC 2.0, and in `params._meta` the protocol
 * version, the client's capabilities and its name (spec, basic: every request carries them; there
 * is no initialize). The in-process server of the docs and the test kit, and `baton call` over
 * HTTP, build their requests here; the Try it page's wire (server/http/assets/try-it-wire.js, run
 * in the browser) writes the same envelope, and test/simulation/request-envelope.test.ts holds the
 * two to one shape.
 */
import { META, PROTOCOL_VERSION } from '../protocol/index.js';
import type { RpcRequest } from './round-exchange.js';

/** Who a client says it is, in every request's `_meta`. */
export interface ClientIdentity {
  capabilities: Record<string, unknown>;
  info: { name: string; version: string };
}

/** `params` (without `_meta`) as request `id` of `client`; `meta` adds to its `_meta` (a progressToken). */
export function requestEnvelope(
  id: number,
  method: string,
  params: Record<string, unknown>,
  client: ClientIdentity,
  meta: Record<string, unknown> = {},
): RpcRequest {
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        [META.protocolVersion]: PROTOCOL_VERSION,
        [META.clientCapabilities]: client.capabilities,
        [META.clientInfo]: client.info,
        ...meta,
      },
    },
  };
}
