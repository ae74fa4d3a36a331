/**
 * A sealed state taken apart and put together by hand, the way the micro-benchmarks' steps see it:
 * each piece of `openState` and `sealState` (server/engine/state/sealed-state.ts) on its own.
 */
import { inflateRawSync } from 'node:zlib';
import superjson from 'superjson';
import nacl from 'tweetnacl';
import type { AnyActor } from 'xstate';
import { isJsonFaithful } from '../../server/engine/state/json-faithful.js';
import type { KeyRing } from '../../server/engine/index.js';

/** A sealed state taken apart by hand, as each step of `openState` sees it. */
export interface OpenedByHand {
  text: string;
  decode: (text: string) => unknown;
  /** The claims as sealed (the tuple) and the persisted snapshot. */
  claims: unknown;
  snapshot: unknown;
}

export function openByHand(token: string, keyRing: KeyRing): OpenedByHand {
  const [, kid, sealed] = token.split('.') as [string, string, string];
  const bytes = Buffer.from(sealed, 'base64url');
  const plain = nacl.secretbox.open(bytes.subarray(24), bytes.subarray(0, 24), keyRing.find(kid)!.secret)!;
  // Flag bit 0: deflate-raw (states under 768 bytes, like the bench's, skip zlib); bit 1: plain JSON.
  const text = plain[0]! & 1 ? inflateRawSync(plain.subarray(1)).toString() : Buffer.from(plain.subarray(1)).toString();
  const decode = plain[0]! & 2 ? (t: string) => JSON.parse(t) as unknown : (t: string) => superjson.parse<unknown>(t);
  const [claims, snapshot] = decode(text) as [unknown, unknown];
  return { text, decode, claims, snapshot };
}

export function persistOf(actor: AnyActor): Record<string, unknown> {
  const { output: _o, error: _e, ...persisted } = actor.getPersistedSnapshot() as Record<string, unknown>;
  return persisted;
}

/** As sealState encodes: plain JSON when the snapshot survives it, superjson otherwise. */
export function encode(snapshot: unknown, value: unknown): string {
  return isJsonFaithful(snapshot) ? JSON.stringify(value) : superjson.stringify(value);
}
