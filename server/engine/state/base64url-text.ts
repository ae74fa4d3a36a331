/**
 * Rules of unpadded base64url text that the state's tokens and digests both rely on: its
 * alphabet, and which spelling of a text is the canonical one for its bytes. The last character
 * of a text whose length is not a multiple of 4 carries unused low bits.
 */
export const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Whether unpadded base64url text (of the alphabet only) is the one spelling of its bytes: the
 * decoder ignores the unused low bits of the last character and a lone last character, so a token
 * could otherwise be altered into a second string that opens to the same state. Equivalent to
 * re-encoding the decoded bytes and comparing, without building that string.
 */
export function isCanonicalBase64url(text: string): boolean {
  const rest = text.length % 4;
  if (rest === 1) return false;
  if (rest === 0) return true;
  const last = BASE64URL.indexOf(text[text.length - 1]!);
  return (last & (rest === 2 ? 0x0f : 0x03)) === 0;
}
