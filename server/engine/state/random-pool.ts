/**
 * Cryptographically random bytes drawn from a pooled buffer. `crypto.randomBytes` costs about
 * 3 µs a call however few bytes it returns, and every sealed state needs two draws (nonce and
 * id); refilling 4 KiB at a time makes each draw a copy.
 */
import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 4096;

export function pooledRandomBytes(): (length: number) => Uint8Array {
  const pool = new Uint8Array(POOL_SIZE);
  let offset = POOL_SIZE;
  return (length) => {
    if (length > POOL_SIZE) return randomFillSync(new Uint8Array(length));
    if (offset + length > POOL_SIZE) {
      randomFillSync(pool);
      offset = 0;
    }
    // A copy: handed-out bytes must never be handed out again or change under the caller.
    const bytes = pool.slice(offset, offset + length);
    offset += length;
    return bytes;
  };
}
