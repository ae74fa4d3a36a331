import { expect } from 'chai';
import { inflateRawSync } from 'node:zlib';
import nacl from 'tweetnacl';
import superjson from 'superjson';
import { openState, sealState, type SealedContent, type StateClaims } from '../../../server/engine/index.js';
import { countingBytes, fixedKey, keyRingOf, testKeyRing } from '../fixtures/keys.js';

const MAX = 16 * 1024;

function claims(overrides: Partial<StateClaims> = {}): StateClaims {
  return {
    principal: 'p-digest',
    target: 'tools/call release',
    args: 'a-digest',
    version: 'v-digest',
    issuedAt: 1_700_000_000,
    expiresAt: 1_700_000_900,
    id: 'state-id-1',
    round: 2,
    asked: ['window', 'confirm'],
    singleUse: false,
    ...overrides,
  };
}

/** Values that must never be readable in a token. */
const SECRET_SERVICE = 'zebra-payments-service';
const SECRET_ANSWER = 'tangerine-window-answer';

function snapshot() {
  return {
    status: 'active',
    value: { collect: { size: 'chosen', region: 'asking' } },
    context: {
      service: SECRET_SERVICE,
      window: SECRET_ANSWER,
      when: new Date('2026-07-28T12:34:56.789Z'),
      tags: new Set(['a', 'b']),
      byRegion: new Map<string, number>([
        ['eu-west', 1],
        ['us-east', 2],
      ]),
      nothing: undefined,
      nested: { deep: [1, 'two', null, { three: 3 }] },
    },
  };
}

function seal(content: SealedContent = { claims: claims(), snapshot: snapshot() }, ring = testKeyRing()) {
  return sealState(content, { keyRing: ring, randomBytes: countingBytes() });
}

function parts(token: string): { head: string; body: Buffer } {
  const last = token.lastIndexOf('.');
  return { head: token.slice(0, last + 1), body: Buffer.from(token.slice(last + 1), 'base64url') };
}

/** Builds a token around a chosen plaintext, as a buggy or older sealer might have. */
function boxed(plain: Uint8Array, kid = 'k1', fill = 1): string {
  const nonce = new Uint8Array(24).fill(9);
  const box = nacl.secretbox(plain, nonce, new Uint8Array(32).fill(fill));
  return `b1.${kid}.${Buffer.concat([nonce, box]).toString('base64url')}`;
}

function withFlag(flag: number, text: string): Uint8Array {
  return new Uint8Array([flag, ...Buffer.from(text)]);
}

/**
 * The text inside a token sealed by `testKeyRing()`, read with the documented format (one flag
 * byte: bit 0 deflate-raw, bit 1 plain JSON instead of superjson), so tests can re-box altered content.
 */
function innerText(token: string): string {
  const { body } = parts(token);
  const plain = nacl.secretbox.open(body.subarray(24), body.subarray(0, 24), new Uint8Array(32).fill(1));
  if (!plain) throw new Error('not sealed by the test key');
  const inner = plain.subarray(1);
  return plain[0]! & 1 ? inflateRawSync(inner).toString() : Buffer.from(inner).toString();
}

function flagOf(token: string): number {
  const { body } = parts(token);
  return nacl.secretbox.open(body.subarray(24), body.subarray(0, 24), new Uint8Array(32).fill(1))![0]!;
}

/** The claims as they are stored: a tuple whose layout the tests do not assume. */
function storedClaims(token: string): unknown[] {
  const [tuple] = superjson.parse<[unknown[], unknown]>(innerText(token));
  return tuple;
}

/** A value of another JSON type than `value`. */
function otherType(value: unknown): unknown {
  if (typeof value === 'string') return 7;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return 'yes';
  if (Array.isArray(value)) return 'not-an-array';
  return [value];
}

describe('sealState / openState', () => {
  describe('round trip', () => {
    it('gives back the claims exactly', () => {
      const opened = openState(seal(), testKeyRing(), MAX);
      expect(opened?.claims).to.deep.equal(claims());
    });

    it('carries a trace context as an eleventh claim, and opens states sealed with ten', () => {
      const trace = '4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00f067aa0ba902b8-01';
      const traced = seal({ claims: claims({ trace }), snapshot: snapshot() });
      expect(storedClaims(traced)).to.have.length(11);
      expect(openState(traced, testKeyRing(), MAX)?.claims).to.deep.equal(claims({ trace }));
      // Without one, the claims are the ten every earlier build sealed and opens.
      expect(storedClaims(seal())).to.have.length(10);
      expect(openState(seal(), testKeyRing(), MAX)?.claims).to.not.have.property('trace');
    });

    it('keeps Date, Map, Set and undefined in the snapshot (superjson)', () => {
      const opened = openState(seal(), testKeyRing(), MAX);
      const context = (opened?.snapshot as ReturnType<typeof snapshot>).context;
      expect(context.when).to.be.instanceOf(Date);
      expect(context.when.toISOString()).to.equal('2026-07-28T12:34:56.789Z');
      expect(context.tags).to.be.instanceOf(Set);
      expect([...context.tags]).to.deep.equal(['a', 'b']);
      expect(context.byRegion).to.be.instanceOf(Map);
      expect([...context.byRegion]).to.deep.equal([
        ['eu-west', 1],
        ['us-east', 2],
      ]);
      expect(context).to.have.property('nothing');
      expect(context.nothing).to.equal(undefined);
      expect(opened?.snapshot).to.deep.equal(snapshot());
    });

    it('is nacl.secretbox exactly: its tokens open with secretbox.open, and secretbox-made tokens open', () => {
      const ring = testKeyRing();
      const key = ring.current;
      const token = sealState(
        { claims: claims(), snapshot: { value: 'a', context: { n: 1 } } },
        { keyRing: ring, randomBytes: countingBytes() },
      );
      const bytes = Buffer.from(token.split('.')[2]!, 'base64url');
      const plain = nacl.secretbox.open(bytes.subarray(24), bytes.subarray(0, 24), key.secret);
      expect(plain).to.not.equal(null);
      expect(JSON.parse(Buffer.from(plain!.subarray(1)).toString())[1]).to.deep.equal({
        value: 'a',
        context: { n: 1 },
      });
      // A token made the way the first releases did (nacl.secretbox, then nonce ‖ box) still opens.
      const text = Buffer.from(JSON.stringify([Object.values({ ...claims(), singleUse: 0 }), { v: 2 }]));
      const message = new Uint8Array([0b10, ...text]);
      const nonce = new Uint8Array(24).fill(7);
      const made = `b1.${key.id}.${Buffer.concat([nonce, nacl.secretbox(message, nonce, key.secret)]).toString('base64url')}`;
      expect(openState(made, ring, MAX)).to.deep.equal({ claims: claims(), snapshot: { v: 2 } });
    });

    it('writes the versioned envelope b1.<kid>.<base64url>', () => {
      expect(seal()).to.match(/^b1\.k1\.[A-Za-z0-9_-]+$/);
    });

    it('uses a fresh nonce each time, so the same content seals differently', () => {
      const ring = testKeyRing();
      const random = countingBytes();
      const content = { claims: claims(), snapshot: snapshot() };
      const a = sealState(content, { keyRing: ring, randomBytes: random });
      const b = sealState(content, { keyRing: ring, randomBytes: random });
      expect(a).to.not.equal(b);
      expect(openState(a, ring, MAX)?.claims).to.deep.equal(openState(b, ring, MAX)?.claims);
    });

    it('opens a state that was stored uncompressed (flag 0)', () => {
      const token = seal();
      const opened = openState(boxed(withFlag(0, innerText(token))), testKeyRing(), MAX);
      expect(opened?.claims).to.deep.equal(claims());
      expect(opened?.snapshot).to.deep.equal(snapshot());
    });

    it('writes a plain-data snapshot as JSON (flag bit 1) and reads it back equal', () => {
      const plainSnapshot = { status: 'active', value: { a: 'b' }, context: { n: 1.5, list: ['x', null, true] } };
      const token = seal({ claims: claims(), snapshot: plainSnapshot });
      expect(flagOf(token)).to.equal(0b10);
      expect(JSON.parse(innerText(token))[1]).to.deep.equal(plainSnapshot);
      expect(openState(token, testKeyRing(), MAX)?.snapshot).to.deep.equal(plainSnapshot);
    });

    it('falls back to superjson for what JSON would change, and keeps it exactly', () => {
      const shared = { id: 7 };
      const cases: Record<string, unknown> = {
        undefined: { context: { nothing: undefined } },
        '-0': { context: { zero: -0 } },
        NaN: { context: { n: Number.NaN } },
        Date: { context: { when: new Date(0) } },
        'shared reference': { context: { a: shared, b: shared } },
      };
      for (const [name, value] of Object.entries(cases)) {
        const token = seal({ claims: claims(), snapshot: value });
        expect(flagOf(token) & 0b10, name).to.equal(0);
        expect(openState(token, testKeyRing(), MAX)?.snapshot, name).to.deep.equal(value);
      }
      const opened = openState(seal({ claims: claims(), snapshot: cases['shared reference'] }), testKeyRing(), MAX)
        ?.snapshot as { context: { a: object; b: object } };
      expect(opened.context.a).to.equal(opened.context.b);
    });

    it('keeps singleUse in the claims', () => {
      const opened = openState(seal({ claims: claims({ singleUse: true }), snapshot: {} }), testKeyRing(), MAX);
      expect(opened?.claims.singleUse).to.equal(true);
    });
  });

  describe('integrity', () => {
    it('fails to open when any single bit of the sealed body (nonce, MAC or ciphertext) is flipped', () => {
      const ring = testKeyRing();
      const token = seal();
      const { head, body } = parts(token);
      expect(body.length).to.be.greaterThan(200);
      const opened: number[] = [];
      for (let position = 0; position < body.length; position += 1) {
        for (const bit of [0, 3, 7]) {
          const flipped = Buffer.from(body);
          flipped[position]! ^= 1 << bit;
          if (openState(head + flipped.toString('base64url'), ring, MAX) !== undefined) opened.push(position);
        }
      }
      expect(opened).to.deep.equal([]);
    });

    it('fails to open when any character of the token is replaced by another token character', () => {
      const ring = testKeyRing();
      const token = seal();
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
      const opened: string[] = [];
      for (let position = 0; position < token.length; position += 1) {
        // Three replacements per position, including neighbours that differ in the low bits only.
        const at = alphabet.indexOf(token[position]!);
        for (const step of [1, 2, 33]) {
          const replacement = alphabet[(at + step) % alphabet.length]!;
          const mutated = token.slice(0, position) + replacement + token.slice(position + 1);
          if (openState(mutated, ring, MAX) !== undefined) opened.push(`${position}:${replacement}`);
        }
      }
      expect(opened).to.deep.equal([]);
    });

    it('fails to open a non-canonical spelling of the body (unused low bits of the last character set)', () => {
      const ring = testKeyRing();
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const remainders = new Set<number>();
      for (let padding = 0; remainders.size < 2 && padding < 12; padding += 1) {
        const token = seal({ claims: claims({ id: `id-${'x'.repeat(padding)}` }), snapshot: { padding } });
        const { body } = parts(token);
        const remainder = body.length % 3;
        if (remainder === 0 || remainders.has(remainder)) continue;
        remainders.add(remainder);
        // 1 leftover byte leaves 4 unused bits in the last character, 2 leftover bytes leave 2.
        const unusedBits = remainder === 1 ? 4 : 2;
        const last = alphabet.indexOf(token.at(-1)!);
        expect(last & ((1 << unusedBits) - 1)).to.equal(0);
        const sibling = token.slice(0, -1) + alphabet[last | 1]!;
        expect(Buffer.from(sibling.split('.')[2]!, 'base64url').equals(body)).to.equal(true);
        expect(openState(token, ring, MAX)).to.not.equal(undefined);
        expect(openState(sibling, ring, MAX)).to.equal(undefined);
      }
      expect([...remainders].sort()).to.deep.equal([1, 2]);
    });

    it('fails to open the same bytes spelled another way: base64, padding, or a character the decoder skips', () => {
      const ring = testKeyRing();
      // A body whose base64url holds '-' and '_' (base64 spells them '+' and '/').
      let token = '';
      for (let i = 0; !(/-/.test(token) && /_/.test(token)); i++) {
        token = seal({ claims: claims({ id: `id-${i}` }), snapshot: { i } });
      }
      expect(openState(token, ring, MAX)).to.not.equal(undefined);
      const [prefix, kid, body] = token.split('.') as [string, string, string];
      const spellings = [
        body.replaceAll('-', '+').replaceAll('_', '/'),
        body + '='.repeat((4 - (body.length % 4)) % 4 || 4),
        `${body.slice(0, 10)}!${body.slice(10)}`,
        `${body.slice(0, 10)} ${body.slice(10)}`,
        `${body.slice(0, 10)}\n${body.slice(10)}`,
        `${body.slice(0, 10)}é${body.slice(10)}`,
      ];
      for (const spelling of spellings) {
        // The decoder reads each to the very bytes of the token: only the check refuses them.
        expect(Buffer.from(spelling, 'base64url').equals(Buffer.from(body, 'base64url'))).to.equal(true);
        expect(openState(`${prefix}.${kid}.${spelling}`, ring, MAX), spelling).to.equal(undefined);
      }
    });

    it('fails to open a token truncated at any length', () => {
      const ring = testKeyRing();
      const token = seal();
      const opened: number[] = [];
      for (let length = 0; length < token.length; length += 1) {
        if (openState(token.slice(0, length), ring, MAX) !== undefined) opened.push(length);
      }
      expect(opened).to.deep.equal([]);
    });

    it('fails to open a token with bytes appended', () => {
      const ring = testKeyRing();
      const { head, body } = parts(seal());
      const longer = Buffer.concat([body, Buffer.from([0])]).toString('base64url');
      expect(openState(head + longer, ring, MAX)).to.equal(undefined);
      expect(openState(`${seal()}.extra`, ring, MAX)).to.equal(undefined);
    });

    it('fails to open the empty string and values that are not strings', () => {
      const ring = testKeyRing();
      for (const value of ['', 42, 0, null, undefined, true, {}, { token: seal() }, [seal()], []]) {
        expect(openState(value, ring, MAX), JSON.stringify(value)).to.equal(undefined);
      }
    });

    it('fails to open a token with another prefix', () => {
      const ring = testKeyRing();
      const token = seal();
      for (const prefix of ['b2', 'B1', 'b', '']) {
        expect(openState(prefix + token.slice(2), ring, MAX)).to.equal(undefined);
      }
    });

    it('fails to open a token naming a kid the ring does not have', () => {
      const token = seal();
      expect(openState(token, keyRingOf(fixedKey('k2', 1)), MAX)).to.equal(undefined);
      expect(openState(token.replace('.k1.', '.k2.'), testKeyRing(), MAX)).to.equal(undefined);
    });

    it('fails to open a token sealed by another ring under the same kid', () => {
      const foreign = seal(undefined, keyRingOf(fixedKey('k1', 2)));
      expect(foreign.startsWith('b1.k1.')).to.equal(true);
      expect(openState(foreign, testKeyRing(), MAX)).to.equal(undefined);
    });

    it('fails to open an authentic box whose flag byte is unknown or wrong', () => {
      const text = innerText(seal());
      expect(openState(boxed(withFlag(0, text)), testKeyRing(), MAX)).to.not.equal(undefined);
      // Flag 2 says JSON: the superjson text parses, but not to [claims, snapshot].
      expect(openState(boxed(withFlag(2, text)), testKeyRing(), MAX)).to.equal(undefined);
      expect(openState(boxed(withFlag(4, text)), testKeyRing(), MAX)).to.equal(undefined);
      expect(openState(boxed(withFlag(255, text)), testKeyRing(), MAX)).to.equal(undefined);
      expect(openState(boxed(withFlag(1, text)), testKeyRing(), MAX)).to.equal(undefined);
    });

    it('fails to open an authentic box whose claims have any field of the wrong type', () => {
      const ring = testKeyRing();
      const tuple = storedClaims(seal());
      const opened: number[] = [];
      for (let index = 0; index < tuple.length; index += 1) {
        const altered = [...tuple];
        altered[index] = otherType(tuple[index]);
        if (openState(boxed(withFlag(0, superjson.stringify([altered, {}]))), ring, MAX)) opened.push(index);
      }
      expect(opened).to.deep.equal([]);
      expect(openState(boxed(withFlag(0, superjson.stringify([tuple, {}]))), ring, MAX)).to.not.equal(undefined);
    });

    it('fails to open an authentic box that does not hold [claims, snapshot]', () => {
      const ring = testKeyRing();
      const tuple = storedClaims(seal());
      const cases: unknown[] = [
        'not an array',
        [tuple],
        [tuple, {}, 'extra'],
        [tuple.slice(0, -1), {}],
        // An eleventh claim is the trace context, a string; nothing else, and no twelfth.
        [[...tuple, 42], {}],
        [[...tuple, 'trace', 'extra'], {}],
        [Object.fromEntries(tuple.entries()), {}],
        [tuple.map((v) => (typeof v === 'number' ? v + 0.5 : v)), {}],
      ];
      for (const content of cases) {
        const token = boxed(withFlag(0, superjson.stringify(content)));
        expect(openState(token, ring, MAX), JSON.stringify(content)).to.equal(undefined);
      }
      expect(openState(boxed(withFlag(0, '{not json')), ring, MAX)).to.equal(undefined);
      expect(openState(boxed(new Uint8Array([0])), ring, MAX)).to.equal(undefined);
    });
  });

  describe('opacity', () => {
    const needles = [SECRET_SERVICE, SECRET_ANSWER, 'eu-west', 'tools/call release', 'state-id-1', 'window'];

    it('does not show argument values or answers in the token text', () => {
      const token = seal();
      for (const needle of needles) {
        expect(token).to.not.include(needle);
        expect(token).to.not.include(Buffer.from(needle).toString('base64url').slice(0, 8));
      }
    });

    it('does not show them in the decoded bytes, nor in anything inflated from any offset', () => {
      const { body } = parts(seal());
      const haystacks: Buffer[] = [body];
      for (let offset = 0; offset < body.length; offset += 1) {
        try {
          haystacks.push(inflateRawSync(body.subarray(offset)));
        } catch {
          // Most offsets are not a deflate stream at all; that is the expected case.
        }
      }
      for (const haystack of haystacks) {
        for (const needle of needles) {
          expect(haystack.includes(Buffer.from(needle)), needle).to.equal(false);
          expect(haystack.includes(Buffer.from(needle, 'utf16le')), needle).to.equal(false);
        }
      }
    });
  });

  describe('key rotation', () => {
    it('opens a state sealed under the old kid after a new key is put first', () => {
      const old = fixedKey('old', 1);
      const token = seal(undefined, keyRingOf(old));
      const rotated = keyRingOf(fixedKey('new', 2), old);
      expect(openState(token, rotated, MAX)?.claims).to.deep.equal(claims());
    });

    it('seals new states under the new first key, which the old ring cannot open', () => {
      const old = fixedKey('old', 1);
      const rotated = keyRingOf(fixedKey('new', 2), old);
      const token = seal(undefined, rotated);
      expect(token.startsWith('b1.new.')).to.equal(true);
      expect(openState(token, rotated, MAX)).to.not.equal(undefined);
      expect(openState(token, keyRingOf(old), MAX)).to.equal(undefined);
    });

    it('stops opening old states once the old key is dropped', () => {
      const token = seal(undefined, keyRingOf(fixedKey('old', 1)));
      expect(openState(token, keyRingOf(fixedKey('new', 2)), MAX)).to.equal(undefined);
    });
  });

  describe('size', () => {
    it('opens a token exactly at the maximum length and refuses it one character below', () => {
      const ring = testKeyRing();
      const token = seal();
      expect(openState(token, ring, token.length)).to.not.equal(undefined);
      expect(openState(token, ring, token.length - 1)).to.equal(undefined);
    });

    it('compresses a repetitive snapshot well below its JSON size', () => {
      const big = { context: { rows: Array.from({ length: 200 }, (_, i) => ({ index: i, label: 'same label' })) } };
      const token = seal({ claims: claims(), snapshot: big });
      expect(token.length).to.be.lessThan(JSON.stringify(big).length / 4);
      expect(openState(token, testKeyRing(), MAX)?.snapshot).to.deep.equal(big);
    });
  });
});
