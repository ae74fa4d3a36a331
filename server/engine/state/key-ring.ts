/**
 * The keys that seal and open `requestState`. The first key seals; every key opens, so an
 * operator rotates by putting a new key first and dropping the old one after the state TTL.
 * Keys come from `BATON_KEYS` as `kid:base64key` entries separated by commas.
 */
import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { ConfigurationError } from '../configuration-error.js';

/** One key of the ring: its public id and its 32 secret bytes. */
export interface SealingKey {
  /** Short public name, written in every sealed state so the right key opens it. */
  id: string;
  /** 32 secret bytes for `nacl.secretbox`. */
  secret: Uint8Array;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The keys that seal and open `requestState`: the first seals, every one opens. Build it with
 * `parseKeyRing(process.env.BATON_KEYS)`; rotate by putting a new key first.
 */
export class KeyRing {
  readonly #byId = new Map<string, SealingKey>();
  readonly current: SealingKey;

  constructor(keys: SealingKey[]) {
    const [first] = keys;
    if (!first) throw new ConfigurationError('The key ring is empty: give at least one key (see `baton keygen`).');
    for (const key of keys) {
      if (!KEY_ID.test(key.id)) {
        throw new ConfigurationError(`Key id "${key.id}" is invalid: use 1-32 characters from A-Z a-z 0-9 _ -.`);
      }
      if (key.secret.length !== nacl.secretbox.keyLength) {
        throw new ConfigurationError(
          `Key "${key.id}" has ${key.secret.length} bytes; it needs exactly ${nacl.secretbox.keyLength} (run \`baton keygen\`).`,
        );
      }
      if (this.#byId.has(key.id)) throw new ConfigurationError(`Key id "${key.id}" appears twice in the key ring.`);
      this.#byId.set(key.id, key);
    }
    this.current = first;
  }

  find(id: string): SealingKey | undefined {
    return this.#byId.get(id);
  }

  get ids(): string[] {
    return [...this.#byId.keys()];
  }
}

/** Parses `BATON_KEYS` (`kid:base64key[,kid:base64key…]`), failing with a message that says how to fix it. */
export function parseKeyRing(spec: string | undefined): KeyRing {
  // `parseKeyRing(process.env.BATON_KEYS!)` with the variable unset: say so, not a TypeError.
  if (typeof spec !== 'string' || spec.trim() === '') {
    throw new ConfigurationError(
      'BATON_KEYS is not set: generate a key with `npx baton keygen` and set BATON_KEYS, or leave `keyRing` out of serve() to run with a development key.',
    );
  }
  const entries = spec
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const keys = entries.map((entry, index) => {
    const colon = entry.indexOf(':');
    if (colon <= 0) {
      throw new ConfigurationError(
        `BATON_KEYS entry ${index + 1} is not "kid:base64key". Generate one with \`baton keygen\`.`,
      );
    }
    const id = entry.slice(0, colon);
    const encoded = entry.slice(colon + 1);
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded)) {
      throw new ConfigurationError(`BATON_KEYS entry "${id}": the key is not base64.`);
    }
    return { id, secret: new Uint8Array(Buffer.from(encoded, 'base64')) };
  });
  return new KeyRing(keys);
}

/** A fresh random key in `BATON_KEYS` form. */
export function generateKeyEntry(id = `k${Date.now().toString(36)}`): string {
  return `${id}:${randomBytes(nacl.secretbox.keyLength).toString('base64')}`;
}
