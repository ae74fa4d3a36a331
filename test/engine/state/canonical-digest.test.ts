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
});
