/**
 * The revisions of the older, stateful wire Baton also serves: an `initialize` handshake, sessions
 * and server-to-client requests (spec 2025-11-25, basic/lifecycle). 2025-06-18 differs from
 * 2025-11-25 only in fields Baton does not depend on, so both are served; older revisions (JSON-RPC
 * batches, 2025-03-26) are not.
 */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18'] as const;
export const LATEST_LEGACY_VERSION = LEGACY_PROTOCOL_VERSIONS[0];

/**
 * Version negotiation (spec 2025-11-25, basic/lifecycle "Version Negotiation"): the requested
 * version when served, otherwise the latest one served; the client disconnects if it cannot speak it.
 */
export function negotiateLegacyVersion(requested: unknown): string {
  return (LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(requested)
    ? (requested as string)
    : LATEST_LEGACY_VERSION;
}

export function isLegacyVersion(version: unknown): boolean {
  return (LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}
