/**
 * Short digests that bind a sealed state to what it was issued for. Arguments are digested in a
 * canonical form (sorted keys), so a client that re-serialises the same arguments in another key
 * order still matches, while any change of value does not.
 */
import { hash } from 'node:crypto';

/** JSON with object keys sorted at every depth; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The digest a principal is bound by, in requestState, page references and task records alike:
 * none of them names the caller in the clear.
 */
export function principalDigest(principal: string): string {
  return shortDigest(`principal\u0000${principal}`);
}

/** 128 bits of SHA-256, base64url: collision-safe for binding, short on the wire. */
export function shortDigest(text: string): string {
  // The one-shot hash(): half the cost of createHash().update().digest() on these short inputs.
  return hash('sha256', text, 'buffer').subarray(0, 16).toString('base64url');
}
