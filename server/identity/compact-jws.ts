/**
 * The strict shape of a JWS in compact serialization (RFC 7515 section 7.1): three parts joined by
 * dots, each base64url without padding (RFC 7515 section 2, "Base64url Encoding": "with all
 * trailing '=' characters omitted ... and without the inclusion of any line breaks, whitespace,
 * or other additional characters"). Decoders are lenient (padding, stray characters, non-zero
 * unused bits all decode), so one token could be spelt many ways; only the one canonical spelling
 * is accepted. The header and payload are never empty; the signature may be (an unsecured JWS,
 * which the algorithm check then refuses by name).
 */

const BASE64URL = /^[A-Za-z0-9_-]*$/;

export function isStrictCompactJws(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] === '' || parts[1] === '') return false;
  return parts.every(isCanonicalBase64url);
}

function isCanonicalBase64url(segment: string): boolean {
  // A length of 1 mod 4 holds 6 bits: no whole byte, never an encoding.
  if (!BASE64URL.test(segment) || segment.length % 4 === 1) return false;
  // Re-encoding the bytes gives back the segment only when its unused low bits are zero.
  return Buffer.from(segment, 'base64url').toString('base64url') === segment;
}
