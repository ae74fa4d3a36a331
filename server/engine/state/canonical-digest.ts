/**
 * Short digests that bind a sealed state to what it was issued for. Arguments are digested in a
 * canonical form (sorted keys), so a client that re-serialises the same arguments in another key
 * order still matches, while any change of value does not.
 */
import { hash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth; arrays keep their order. Built with loops and one
 * string, not map/filter/join: it runs on every request (the arguments' binding), and its output
 * for any JSON value must stay byte for byte what sealed states were bound with.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(record);
  let members = '';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    members += (members === '' ? '' : ',') + JSON.stringify(key) + ':' + canonicalJson(item);
  }
  return `{${members}}`;
}

/** Below this many keys an object's are sorted by insertion: see sortedKeys. */
const INSERTION_SORT_UP_TO = 16;

/**
 * An object's own keys in the order `Array#sort` gives them (UTF-16 code units: what `>` compares
 * on strings). Arguments have a handful of keys, and for those the built-in sort cost five times
 * an insertion sort and allocated about 600 bytes a request (its work arrays; Node 20, measured
 * under the bench's load).
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length > INSERTION_SORT_UP_TO) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

/**
 * The digest a principal is bound by, in requestState, page references and task records alike:
 * none of them names the caller in the clear.
 */
export function principalDigest(principal: string): string {
  return shortDigest(`principal\u0000${principal}`);
}

/** The alphabet of base64url text, in the order of the 6-bit values it spells (RFC 4648, section 5). */
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * 128 bits of SHA-256, base64url: collision-safe for binding, short on the wire. It runs on every
 * request (the arguments' binding). The digest is asked for as text, not as a Buffer: Node makes
 * a Buffer from C++ with a backing store of its own, which cost 1.7 µs against 0.4 µs for the
 * text (Node 20, measured in a hot loop), and gives the scavenger one more ArrayBuffer to sweep.
 * The first 21 characters of the whole digest's text carry its first 126 bits; the 22nd of the
 * 16-byte form carries bits 126 and 127 and four zero bits, so it is the whole digest's 22nd
 * character with its low four bits cleared: the same text the 16 bytes encode to.
 */
export function shortDigest(text: string): string {
  const whole = hash('sha256', text, 'base64url');
  return whole.slice(0, 21) + BASE64URL[BASE64URL.indexOf(whole[21]!) & 0b110000]!;
}
