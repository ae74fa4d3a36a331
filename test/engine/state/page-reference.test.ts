import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { openPageReference, openState, verifyPageVisit } from '../../../server/engine/index.js';
import { principalDigest } from '../../../server/engine/state/canonical-digest.js';
import { sealPageReference } from '../../../server/engine/state/page-reference.js';
import { testKeyRing } from '../../helpers/test-server.js';

const bytes = (n: number) => new Uint8Array(randomBytes(n));
const NOW = Date.UTC(2026, 11, 1, 12);

describe('page references (URL elicitation)', () => {
  const keyRing = testKeyRing('k1');
  const claims = {
    principal: principalDigest('alice'),
    target: 'tools/call connect-payments',
    key: 'link',
    subject: 'conn-1',
    expiresAt: NOW / 1000 + 60,
  };
  const ref = sealPageReference(claims, keyRing, bytes);

  it('opens for the principal who started the flow, giving the page its subject', () => {
    expect(verifyPageVisit(ref, { keyRing, visitor: 'alice', clock: () => NOW })).to.deep.equal({
      ok: true,
      subject: 'conn-1',
      target: 'tools/call connect-payments',
      key: 'link',
    });
  });

  it('refuses another principal, an expired reference and another key ring', () => {
    expect(verifyPageVisit(ref, { keyRing, visitor: 'bob', clock: () => NOW })).to.deep.equal({
      ok: false,
      reason: 'other_principal',
    });
    expect(verifyPageVisit(ref, { keyRing, visitor: 'alice', clock: () => NOW + 61_000 })).to.deep.include({
      reason: 'expired',
    });
    expect(verifyPageVisit(ref, { keyRing: testKeyRing('k1'), visitor: 'alice', clock: () => NOW })).to.deep.include({
      reason: 'invalid',
    });
  });

  it('keeps the subject out of the URL, and never opens as a requestState (a key of its own)', () => {
    expect(ref).to.match(/^p1\.k1\.[\w-]+$/);
    expect(ref).not.to.include('conn-1');
    expect(openState(ref, keyRing, 16384)).to.equal(undefined);
    expect(openState(`b1${ref.slice(2)}`, keyRing, 16384)).to.equal(undefined);
    expect(openPageReference(`p1.k1.${ref.split('.')[2]}x`, keyRing)).to.equal(undefined);
  });
});
