/**
 * The reference a URL elicitation hands to its page (spec, client/elicitation "URL Mode", and
 * "Phishing"): unguessable, bound to the flow and to the principal who started it, sealed so that
 * no one can alter it. The URL only says which flow the page is for; it authenticates no one. The
 * page identifies the person in front of it by its own means (a login session, a token) and asks
 * `verifyPageVisit` whether that is the principal the flow belongs to, so a link forwarded to
 * someone else (the spec's phishing attack) is refused.
 *
 * Format: `p1.<kid>.<base64url(nonce ‖ secretbox(JSON claims))>`, under a key derived from the
 * ring's key for this purpose only, so a page reference never opens as a requestState or back.
 */
import nacl from 'tweetnacl';
import { principalDigest } from './canonical-digest.js';
import type { KeyRing, SealingKey } from './key-ring.js';

const PREFIX = 'p1';
const PURPOSE = new TextEncoder().encode('baton page reference\u0000');
/** Longer than any reference Baton issues; anything longer is not opened. */
const MAX_LENGTH = 2048;

export interface PageReferenceClaims {
  /** Digest of the principal who started the flow. */
  principal: string;
  /** Method and name of the flow, e.g. `tools/call connect-payments`. */
  target: string;
  /** The question's key. */
  key: string;
  /** What the page needs to know (the question's `subject`, e.g. a connection id); never shown in the URL. */
  subject: string;
  /** Seconds since the epoch; the reference lives as long as the state that asked. */
  expiresAt: number;
}

const derived = new WeakMap<SealingKey, Uint8Array>();

function pageKey(key: SealingKey): Uint8Array {
  let secret = derived.get(key);
  if (!secret) {
    const input = new Uint8Array(PURPOSE.length + key.secret.length);
    input.set(PURPOSE);
    input.set(key.secret, PURPOSE.length);
    secret = nacl.hash(input).subarray(0, nacl.secretbox.keyLength);
    derived.set(key, secret);
  }
  return secret;
}

export function sealPageReference(
  claims: PageReferenceClaims,
  keyRing: KeyRing,
  randomBytes: (length: number) => Uint8Array,
): string {
  const key = keyRing.current;
  const nonce = randomBytes(nacl.secretbox.nonceLength);
  const box = nacl.secretbox(new TextEncoder().encode(JSON.stringify(claims)), nonce, pageKey(key));
  return `${PREFIX}.${key.id}.${Buffer.concat([nonce, box]).toString('base64url')}`;
}

export function openPageReference(reference: unknown, keyRing: KeyRing): PageReferenceClaims | undefined {
  if (typeof reference !== 'string' || reference.length > MAX_LENGTH) return undefined;
  const [prefix, kid, sealed, extra] = reference.split('.');
  if (prefix !== PREFIX || kid === undefined || sealed === undefined || extra !== undefined) return undefined;
  const key = keyRing.find(kid);
  if (!key) return undefined;
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.toString('base64url') !== sealed || bytes.length <= nacl.secretbox.nonceLength) return undefined;
  const plain = nacl.secretbox.open(
    bytes.subarray(nacl.secretbox.nonceLength),
    bytes.subarray(0, nacl.secretbox.nonceLength),
    pageKey(key),
  );
  if (!plain) return undefined;
  try {
    const claims = JSON.parse(new TextDecoder().decode(plain)) as PageReferenceClaims;
    const strings = [claims.principal, claims.target, claims.key, claims.subject].every((v) => typeof v === 'string');
    return strings && Number.isSafeInteger(claims.expiresAt) ? claims : undefined;
  } catch {
    return undefined;
  }
}

/** What `verifyPageVisit` found: the flow's subject and question when the visit is good, else why not. */
export type PageVisit =
  | { ok: true; subject: string; target: string; key: string }
  /** `invalid`: altered, forged, or sealed with a key no longer in the ring; `expired`; `other_principal`. */
  | { ok: false; reason: 'invalid' | 'expired' | 'other_principal' };

/**
 * What a page asks before it accepts anything: is this reference ours and current, and is
 * `visitor` (the principal id the page established itself) the one who started the flow? Without
 * `visitor` only the reference is checked: enough to show a page, never to accept a submission.
 */
export function verifyPageVisit(
  reference: unknown,
  options: { keyRing: KeyRing; visitor?: string | undefined; clock?: (() => number) | undefined },
): PageVisit {
  const claims = openPageReference(reference, options.keyRing);
  if (!claims) return { ok: false, reason: 'invalid' };
  if (Math.floor((options.clock ?? Date.now)() / 1000) >= claims.expiresAt) return { ok: false, reason: 'expired' };
  if (options.visitor !== undefined && claims.principal !== principalDigest(options.visitor))
    return { ok: false, reason: 'other_principal' };
  return { ok: true, subject: claims.subject, target: claims.target, key: claims.key };
}
