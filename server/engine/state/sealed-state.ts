/**
 * The `requestState` token: a persisted XState snapshot plus the claims that bind it, serialised
 * with superjson, compressed (deflate-raw) and sealed with `nacl.secretbox` (XSalsa20-Poly1305,
 * random 24-byte nonce). The client can neither read nor change it (spec, MRTR "Security").
 *
 * Token format (docs/architecture.md): `b1.<kid>.<base64url(nonce ‖ box)>`, where the box holds one
 * flag byte and the text of `[claims, snapshot]`. Flag bit 0: deflate-raw; bit 1: the text is plain
 * JSON, written when JSON carries the snapshot faithfully (most do), else superjson.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import superjson from 'superjson';
import nacl from 'tweetnacl';
import { isJsonFaithful } from './json-faithful.js';
import type { KeyRing } from './key-ring.js';

const PREFIX = 'b1';
const NONCE_LENGTH = nacl.secretbox.nonceLength;
/** secretbox's padding: the message follows 32 zero bytes, the box 16 (NaCl's C API). */
const ZERO_BYTES = 32;
const BOX_ZERO_BYTES = 16;

/**
 * tweetnacl's own secretbox, the one `nacl.secretbox` wraps (same output), called on buffers laid
 * out here so a token is sealed and opened without copying it between arrays.
 */
const lowlevel = (
  nacl as unknown as {
    lowlevel: {
      crypto_secretbox(c: Uint8Array, m: Uint8Array, d: number, n: Uint8Array, k: Uint8Array): number;
      crypto_secretbox_open(m: Uint8Array, c: Uint8Array, d: number, n: Uint8Array, k: Uint8Array): number;
    };
  }
).lowlevel;

const FLAG_DEFLATE = 0b01;
const FLAG_JSON = 0b10;
const KNOWN_FLAGS = FLAG_DEFLATE | FLAG_JSON;
/**
 * Below this many bytes a state is sealed as it is: setting up zlib costs more than the bytes it
 * saves on a typical few-hundred-byte state (measured in bench/: deflate was the largest single
 * step of a round), and the token stays small either way.
 */
const COMPRESS_FROM = 768;

/** What a sealed state is bound to; every field is checked when it is opened. */
export interface StateClaims {
  /** Digest of the principal the state was issued to. */
  principal: string;
  /** Method and name, e.g. `tools/call deploy`. */
  target: string;
  /** Digest of the canonical arguments. */
  args: string;
  /** The machine's structural version when it was sealed. */
  version: string;
  /** Issue time and expiry, in seconds since the epoch. */
  issuedAt: number;
  expiresAt: number;
  /** Unique id of this state (the single-use guard keys on it). */
  id: string;
  /** How many rounds this flow has had, and the keys asked in the last one. */
  round: number;
  asked: string[];
  /** The state may be presented once only (the single-use guard checks `id`). */
  singleUse: boolean;
  /**
   * The flow's trace context (telemetry/trace-context.ts), sealed while tracing is on (a round
   * sampled out too, flagged so): the next round joins the same trace on any instance, and keeps
   * its sampling decision. Not checked on open.
   */
  trace?: string;
}

export interface SealedContent {
  claims: StateClaims;
  snapshot: unknown;
}

export interface SealOptions {
  keyRing: KeyRing;
  randomBytes: (length: number) => Uint8Array;
  /**
   * The `maxLength` the state will be opened with. When given, a state that openState would
   * refuse (too long sealed, or inflating past its bound) is not issued: sealState throws
   * StateSizeError, so Baton never hands out a state it cannot open.
   */
  maxLength?: number;
  /**
   * How many times its sealed length the text may be (INFLATION_RATIO). Only for states Baton
   * alone reads back (task records at rest), whose text is bounded where they are written; a
   * state a client hands back keeps the default. Open it with the same ratio.
   */
  inflationRatio?: number;
  /**
   * Texts this long or longer are compressed (COMPRESS_FROM). A holder that will replace the state
   * within moments may raise it: deflate costs a round a few tens of µs, and saves only bytes.
   */
  compressFrom?: number;
}

/**
 * The text inside a box may be at most this many times the token's length. Measured ratios of
 * real snapshots stay under 5 (deflate on JSON, then base64); a state inflating further is a
 * context of repeated text, which costs the server memory and time on every round it is sent back.
 */
export const INFLATION_RATIO = 16;
/** The text inside a box may be at most this many times `maxLength`, however well it compresses. */
export const CONTEXT_FACTOR = 4;

/** The most text a token of `tokenLength` characters may open to: one bound for seal and open. */
export function plainTextLimit(tokenLength: number, maxLength: number, inflationRatio = INFLATION_RATIO): number {
  return Math.min(maxLength * CONTEXT_FACTOR, tokenLength * inflationRatio);
}

/** A state too large to issue; the engine turns it into a tool error naming the limit. */
export class StateSizeError extends Error {
  constructor(
    readonly sealedLength: number,
    readonly textLength: number,
    readonly maxLength: number,
  ) {
    super(
      sealedLength > maxLength
        ? `its state is ${sealedLength} characters sealed, over the ${maxLength} limit`
        : `its state is ${textLength} bytes as text, over the ${plainTextLimit(sealedLength, maxLength)} bytes allowed for a ${sealedLength}-character sealed state (at most ${CONTEXT_FACTOR} × ${maxLength}, and at most ${INFLATION_RATIO} × the sealed length)`,
    );
    this.name = 'StateSizeError';
  }
}

/** Ten claims; an eleventh, the trace context, only when there is one (states sealed without it still open). */
type ClaimsTuple =
  | [string, string, string, string, number, number, string, number, string[], 0 | 1]
  | [string, string, string, string, number, number, string, number, string[], 0 | 1, string];

function toTuple(c: StateClaims): ClaimsTuple {
  const claims: [string, string, string, string, number, number, string, number, string[], 0 | 1] = [
    c.principal,
    c.target,
    c.args,
    c.version,
    c.issuedAt,
    c.expiresAt,
    c.id,
    c.round,
    c.asked,
    c.singleUse ? 1 : 0,
  ];
  return c.trace === undefined ? claims : [...claims, c.trace];
}

function fromTuple(t: unknown): StateClaims | undefined {
  if (!Array.isArray(t) || (t.length !== 10 && t.length !== 11)) return undefined;
  const [principal, target, args, version, issuedAt, expiresAt, id, round, asked, singleUse, trace] = t as unknown[];
  if (trace !== undefined && typeof trace !== 'string') return undefined;
  const strings = [principal, target, args, version, id].every((v) => typeof v === 'string');
  const numbers = [issuedAt, expiresAt, round].every((v) => Number.isSafeInteger(v));
  const keys = Array.isArray(asked) && asked.every((k) => typeof k === 'string');
  if (!strings || !numbers || !keys || (singleUse !== 0 && singleUse !== 1)) return undefined;
  const claims = {
    principal,
    target,
    args,
    version,
    issuedAt,
    expiresAt,
    id,
    round,
    asked,
    singleUse: singleUse === 1,
  } as StateClaims;
  if (trace !== undefined) claims.trace = trace as string;
  return claims;
}

/**
 * A sealed state and the text inside its box, so a holder that sealed it can read it back
 * (contentOfText) without opening the token again: no base64, no secretbox, no inflate.
 */
export interface SealedText {
  token: string;
  /** The text of `[claims, snapshot]` the box holds, before any compression. */
  text: string;
  /** Whether `text` is plain JSON (else superjson). */
  json: boolean;
}

export function sealState(content: SealedContent, options: SealOptions): string {
  return sealStateText(content, options).token;
}

/** sealState, keeping the text it sealed. */
export function sealStateText(content: SealedContent, options: SealOptions): SealedText {
  // The claims tuple is plain JSON by construction; only the snapshot decides the codec.
  const payload = [toTuple(content.claims), content.snapshot];
  const json = isJsonFaithful(content.snapshot);
  const text = json ? JSON.stringify(payload) : superjson.stringify(payload);
  const textLength = Buffer.byteLength(text);
  let flag = json ? FLAG_JSON : 0;
  let deflated: Buffer | undefined;
  if (textLength >= (options.compressFrom ?? COMPRESS_FROM)) {
    const candidate = deflateRawSync(text);
    if (candidate.length < textLength) {
      flag |= FLAG_DEFLATE;
      deflated = candidate;
    }
  }
  const bodyLength = deflated ? deflated.length : textLength;
  // One buffer holds the whole token: the nonce, then the box. secretbox works on the message
  // behind 32 zero bytes and leaves the box behind 16; sealed in place at offset 8, the box lands
  // right after the 24-byte nonce, with nothing copied.
  const key = options.keyRing.current;
  const nonce = options.randomBytes(NONCE_LENGTH);
  const out = Buffer.allocUnsafe(NONCE_LENGTH - BOX_ZERO_BYTES + ZERO_BYTES + 1 + bodyLength);
  const message = out.subarray(NONCE_LENGTH - BOX_ZERO_BYTES);
  message.fill(0, 0, ZERO_BYTES);
  message[ZERO_BYTES] = flag;
  if (deflated) message.set(deflated, ZERO_BYTES + 1);
  else message.write(text, ZERO_BYTES + 1);
  lowlevel.crypto_secretbox(message, message, message.length, nonce, key.secret);
  out.set(nonce, 0);
  const token = `${PREFIX}.${key.id}.${out.toString('base64url')}`;
  const { maxLength, inflationRatio } = options;
  if (
    maxLength !== undefined &&
    (token.length > maxLength || textLength > plainTextLimit(token.length, maxLength, inflationRatio))
  ) {
    throw new StateSizeError(token.length, textLength, maxLength);
  }
  return { token, text, json };
}

/** sealState within `maxLength`, reporting a state too large to issue instead of throwing. */
export function sealBounded(
  content: SealedContent,
  options: SealOptions & { maxLength: number },
): { token: string } | { tooLarge: StateSizeError } {
  try {
    return { token: sealState(content, options) };
  } catch (error) {
    if (error instanceof StateSizeError) return { tooLarge: error };
    throw error;
  }
}

/**
 * Opens a token, or returns undefined for anything that is not an intact state sealed by one of
 * our keys. It never says why: the caller answers every failure with the same opaque error.
 */
export function openState(
  token: unknown,
  keyRing: KeyRing,
  maxLength: number,
  inflationRatio = INFLATION_RATIO,
): SealedContent | undefined {
  if (typeof token !== 'string' || token.length > maxLength) return undefined;
  const [prefix, kid, sealed, extra] = token.split('.');
  if (prefix !== PREFIX || kid === undefined || sealed === undefined || extra !== undefined) return undefined;
  const key = keyRing.find(kid);
  if (!key) return undefined;
  const bytes = Buffer.from(sealed, 'base64url');
  // Only the one spelling of its bytes opens. The decoder skips characters outside the alphabet,
  // takes '+', '/' and '=' as well, and ignores the unused low bits of the last character, so a
  // token could otherwise be altered into a second string that opens to the same state. The bytes
  // encoded again must give the text back: one check for all of it, and cheaper than a regular
  // expression over the text (0.3 µs against 0.8 for a three-question state, Node 20).
  if (bytes.toString('base64url') !== sealed) return undefined;
  const minimum = NONCE_LENGTH + nacl.secretbox.overheadLength + 1;
  if (bytes.length < minimum) return undefined;
  // Opened in place: the box needs 16 zero bytes before it, where the nonce's last 16 bytes are.
  const nonce = new Uint8Array(bytes.subarray(0, NONCE_LENGTH));
  const box = bytes.subarray(NONCE_LENGTH - BOX_ZERO_BYTES);
  box.fill(0, 0, BOX_ZERO_BYTES);
  if (lowlevel.crypto_secretbox_open(box, box, box.length, nonce, key.secret) !== 0) return undefined;
  const plain = box.subarray(ZERO_BYTES);
  try {
    const flag = plain[0]!;
    if ((flag & ~KNOWN_FLAGS) !== 0) return undefined;
    const body = plain.subarray(1);
    // The same bound sealState enforces: a state sealed before a limit was lowered, or with
    // another setting, opens only if it fits this one.
    const limit = plainTextLimit(token.length, maxLength, inflationRatio);
    if (body.length > limit) return undefined;
    const text = flag & FLAG_DEFLATE ? inflateRawSync(body, { maxOutputLength: limit }).toString() : body.toString();
    return contentOfText(text, (flag & FLAG_JSON) !== 0);
  } catch {
    return undefined;
  }
}

/** The claims and snapshot of a box's text (SealedText), or undefined when it holds no state. */
export function contentOfText(text: string, json: boolean): SealedContent | undefined {
  const parsed: unknown = json ? JSON.parse(text) : superjson.parse<unknown>(text);
  if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
  const claims = fromTuple(parsed[0]);
  if (!claims) return undefined;
  return { claims, snapshot: parsed[1] };
}
