import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { canonicalJson, shortDigest } from '../../../server/engine/state/canonical-digest.js';

describe('canonicalJson', () => {
  it('sorts object keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 1 }], c: 'x' } })).to.equal(
      '{"a":{"c":"x","d":[1,{"y":1,"z":0}]},"b":1}',
    );
  });

  it('gives the same text for the same value with keys in another order', () => {
    const a = { service: 'billing', version: '2.4.0', options: { dryRun: true, tags: ['x', 'y'] } };
    const b = { options: { tags: ['x', 'y'], dryRun: true }, version: '2.4.0', service: 'billing' };
    expect(canonicalJson(a)).to.equal(canonicalJson(b));
  });

  it('keeps array order significant', () => {
    expect(canonicalJson({ tags: ['x', 'y'] })).to.not.equal(canonicalJson({ tags: ['y', 'x'] }));
  });

  it('agrees with JSON.stringify for what JSON drops or rewrites', () => {
    const value = { a: undefined, b: [undefined, NaN, Infinity, null], c: 'é"\\\n', d: -0, e: 1e21 };
    const sortedJson = JSON.stringify(JSON.parse(JSON.stringify(value)));
    expect(canonicalJson(value)).to.equal(sortedJson);
    expect(canonicalJson(undefined)).to.equal('null');
  });

  it('keeps values of different types apart', () => {
    const texts = [1, '1', true, 'true', null, 'null', [], {}, [1], { 0: 1 }, ''].map(canonicalJson);
    expect(new Set(texts).size).to.equal(texts.length);
  });

  it('binds arguments to the digest states were sealed with before (tokens of older builds open)', () => {
    const value = {
      service: 'billing',
      version: '2.4.0',
      options: { tags: ['x', 'y'], dryRun: true, limits: [1, { b: null, a: 'é"' }] },
    };
    const text =
      '{"options":{"dryRun":true,"limits":[1,{"a":"é\\"","b":null}],"tags":["x","y"]},"service":"billing","version":"2.4.0"}';
    expect(canonicalJson(value)).to.equal(text);
    // Computed by the map/filter/join form that sealed states of 0ff83eb and earlier.
    expect(shortDigest(canonicalJson(value))).to.equal('QxMCtd25dQa0kACFKi-uLg');
  });

  it('writes what the original map/filter/join form wrote, for any JSON value', () => {
    const reference = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
      if (value !== null && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        const entries = Object.keys(record)
          .sort()
          .filter((key) => record[key] !== undefined)
          .map((key) => `${JSON.stringify(key)}:${reference(record[key])}`);
        return `{${entries.join(',')}}`;
      }
      return JSON.stringify(value) ?? 'null';
    };
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const leaves = [null, true, false, 0, -1.5, 1e21, '', 'x', 'é"\\\n', 'Z', 'a'];
    const randomValue = (depth: number): unknown => {
      const pick = next();
      if (depth > 3 || pick < 0.4) return leaves[Math.floor(next() * leaves.length)];
      const size = Math.floor(next() * 5);
      if (pick < 0.7) return Array.from({ length: size }, () => randomValue(depth + 1));
      // Code-unit order, not code-point order: '\uFFFF' sorts after the surrogate pair of '😀'.
      const keys = ['b', 'a', 'B', '10', '9', 'é', 'a"b', '', '\uFFFF', '😀', 'ab', 'a\u0000'];
      return Object.fromEntries(
        Array.from({ length: size }, () => [keys[Math.floor(next() * keys.length)]!, randomValue(depth + 1)]),
      );
    };
    for (let i = 0; i < 2000; i++) {
      const value = randomValue(0);
      expect(canonicalJson(value)).to.equal(reference(value));
    }
  });

  it('orders an object of many keys as Array#sort does', () => {
    const keys = Array.from(
      { length: 40 },
      (_, i) => `${(i * 7919) % 97}${i % 3 === 0 ? 'é' : ''}${i % 5 === 0 ? '😀' : ''}`,
    );
    for (const count of [15, 16, 17, 40]) {
      const record = Object.fromEntries(keys.slice(0, count).map((key, i) => [key, i]));
      const expected = Object.keys(record)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${record[key]}`);
      expect(canonicalJson(record)).to.equal(`{${expected.join(',')}}`);
    }
  });

  it('cannot be confused by keys that contain JSON syntax', () => {
    expect(canonicalJson({ 'a":1,"b': 2 })).to.not.equal(canonicalJson({ a: 1, b: 2 }));
    expect(JSON.parse(canonicalJson({ 'a":1,"b': 2 }))).to.deep.equal({ 'a":1,"b': 2 });
  });
});

describe('shortDigest', () => {
  it('is 128 bits as base64url (22 characters)', () => {
    expect(shortDigest('x')).to.match(/^[A-Za-z0-9_-]{22}$/);
  });

  it('is deterministic and differs for different inputs', () => {
    expect(shortDigest('a')).to.equal(shortDigest('a'));
    expect(shortDigest('a')).to.not.equal(shortDigest('b'));
    expect(shortDigest(canonicalJson({ v: '2.4.0' }))).to.not.equal(shortDigest(canonicalJson({ v: '2.4.1' })));
  });

  it('is the first 16 bytes of SHA-256', () => {
    // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    expect(Buffer.from(shortDigest('abc'), 'base64url').toString('hex')).to.equal('ba7816bf8f01cfea414140de5dae2223');
  });

  it('is exactly the text those 16 bytes encode to, last character included', () => {
    // A decoder ignores the last character's low bits, so decoding alone would not notice a wrong one.
    for (let i = 0; i < 3000; i++) {
      const text = `${i}\u0000é${'x'.repeat(i % 97)}`;
      const bytes = createHash('sha256').update(text).digest().subarray(0, 16);
      expect(shortDigest(text)).to.equal(bytes.toString('base64url'));
    }
  });
});
