/** The protocol revisions Baton serves. Only the stateless core: there is no initialize handshake. */
import { ErrorCode } from './error-catalogue.js';
import { ProtocolError } from './protocol-error.js';

/** The revision this server speaks, and the one its own clients (`baton call`, the docs pages) send. */
export const PROTOCOL_VERSION = '2026-07-28';

export const SUPPORTED_PROTOCOL_VERSIONS = [PROTOCOL_VERSION] as const;

export function unsupportedVersion(requested: unknown): ProtocolError {
  return new ProtocolError(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
    supported: [...SUPPORTED_PROTOCOL_VERSIONS],
    // The schema wants a string; a legacy initialize that named no version requested none.
    requested: typeof requested === 'string' ? requested : '',
  });
}

export function assertSupportedVersion(version: string): void {
  if (!(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version)) throw unsupportedVersion(version);
}
