/**
 * The `Mcp-Session-Id` of a 2025-11-25 session: what `initialize` settled (version, client
 * capabilities), bound to the principal and an expiry, sealed with the key ring exactly like a
 * requestState. Any instance holding the keys can serve any request of any session, so a fleet
 * needs no shared session store; only the live parts of a session (a question waiting for its
 * answer, the log level, subscriptions, the GET stream) live in the instance the session is routed
 * to (docs/clients.md, "A fleet").
 *
 * The token is visible ASCII (`b1.<kid>.<base64url>`), as the spec requires of session ids.
 */
import { createHash } from 'node:crypto';
import { openState, sealState, type KeyRing } from '../../engine/index.js';

export interface SessionClaims {
  /** Unique per session; names the session's live state in an instance. */
  id: string;
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  expiresAt: number;
}

export interface SessionTokenOptions {
  keyRing: KeyRing;
  randomBytes: (length: number) => Uint8Array;
  clock: () => number;
  /** Lifetime of a session, in seconds. */
  ttlSeconds: number;
}

/** Claims a sealed flow state can never carry, so neither token opens as the other. */
const TARGET = 'legacy-session';
/** Session ids travel in a header: well below the usual 8 KiB header limits. */
const MAX_TOKEN_LENGTH = 4096;

const principalDigest = (principal: string) =>
  createHash('sha256').update(`principal\u0000${principal}`).digest('base64url').slice(0, 22);

export function sealSession(
  principal: string,
  session: Omit<SessionClaims, 'id' | 'expiresAt'>,
  options: SessionTokenOptions,
): { token: string; claims: SessionClaims } {
  const issuedAt = Math.floor(options.clock() / 1000);
  const id = Buffer.from(options.randomBytes(12)).toString('base64url');
  const expiresAt = issuedAt + options.ttlSeconds;
  const token = sealState(
    {
      claims: {
        principal: principalDigest(principal),
        target: TARGET,
        args: '',
        version: '',
        issuedAt,
        expiresAt,
        id,
        round: 0,
        asked: [],
        singleUse: false,
      },
      snapshot: { v: session.protocolVersion, c: session.clientCapabilities },
    },
    options,
  );
  return { token, claims: { id, expiresAt, ...session } };
}

/** The session a token names, or undefined for anything else (expired, tampered, someone else's). */
export function openSession(token: string, principal: string, options: SessionTokenOptions): SessionClaims | undefined {
  const opened = openState(token, options.keyRing, MAX_TOKEN_LENGTH);
  if (!opened) return undefined;
  const { claims, snapshot } = opened;
  if (claims.target !== TARGET || claims.principal !== principalDigest(principal)) return undefined;
  if (Math.floor(options.clock() / 1000) >= claims.expiresAt) return undefined;
  const { v, c } = (snapshot ?? {}) as { v?: unknown; c?: unknown };
  if (typeof v !== 'string' || typeof c !== 'object' || c === null) return undefined;
  return {
    id: claims.id,
    expiresAt: claims.expiresAt,
    protocolVersion: v,
    clientCapabilities: c as Record<string, unknown>,
  };
}
