/** Keys for tests and local runs. */
import { KeyRing, generateKeyEntry, parseKeyRing } from '../engine/state/key-ring.js';

/** A fresh key ring with one random key: for tests and local runs, never for a deployment. */
export function testKeyRing(): KeyRing {
  return parseKeyRing(generateKeyEntry('test'));
}
