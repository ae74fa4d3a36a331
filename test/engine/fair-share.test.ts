/**
 * The fair-share rule every instance total uses (request gate, long-lived budget, in-memory task
 * store): a share per caller, and past three quarters of the total only callers holding little
 * are admitted, so many callers at their share leave a newcomer room. The default figures quoted
 * in docs/security.md are checked here.
 */
import { expect } from 'chai';
import { FairShare, highWaterMark, lateShare, shareRefusal } from '../../server/engine/index.js';

/** Callers named `prefix-0…`, each taking `each` units while it is admitted; returns the refusals. */
function flood(share: FairShare, callers: number, each: number, prefix = 'attacker') {
  const refused = [];
  for (let c = 0; c < callers; c++) {
    for (let i = 0; i < each; i++) {
      const refusal = share.take(`${prefix}-${c}`);
      if (refusal) refused.push(refusal);
    }
  }
  return refused;
}

/** How many callers it takes to fill the total, each taking `unit` at a time until refused. */
function callersToFill(share: FairShare, unit = 1): number {
  let callers = 0;
  while (share.used + unit <= share.limits.total && callers < 10_000) {
    callers += 1;
    while (share.take(`filler-${callers}`, unit) === undefined);
  }
  return callers;
}

describe('fair shares of an instance total', () => {
  it('lets a caller hold its share, and refuses the next with its scope and limit', () => {
    const share = new FairShare({ total: 512, perCaller: 16 });
    for (let i = 0; i < 16; i++) expect(share.take('a')).to.equal(undefined);
    expect(share.take('a')).to.deep.equal({ scope: 'client', limit: 16, late: false });
    expect(share.heldBy('a')).to.equal(16);
  });

  it('leaves a 33rd caller room after 32 callers each took 16 of 512 (the default listen streams)', () => {
    const share = new FairShare({ total: 512, perCaller: 16 });
    const refused = flood(share, 32, 16);
    // 24 callers reach the high-water mark at their share; the other 8 get one each.
    expect(share.used).to.equal(24 * 16 + 8);
    expect(refused.every((r) => r.scope === 'client')).to.equal(true);
    expect(refused.filter((r) => r.late)).to.have.length(8 * 15);
    expect(share.take('newcomer')).to.equal(undefined);
  });

  it('refuses the caller holding more, not the one holding none, past the high-water mark', () => {
    const share = new FairShare({ total: 8, perCaller: 4 });
    flood(share, 2, 3);
    expect(share.used).to.equal(highWaterMark(8));
    expect(share.take('attacker-0')).to.deep.equal({ scope: 'client', limit: 1, late: true });
    expect(share.take('honest')).to.equal(undefined);
  });

  it('answers 503-scope only once the total itself is reached, whoever asks', () => {
    const share = new FairShare({ total: 4, perCaller: 4 });
    flood(share, 4, 1);
    expect(share.take('newcomer')).to.deep.equal({ scope: 'instance', limit: 4, late: false });
  });

  it('forgets a caller once it gave everything back, and frees its slots for others', () => {
    const share = new FairShare({ total: 4, perCaller: 2 });
    share.take('a');
    share.take('a');
    share.give('a');
    share.give('a');
    expect(share.used).to.equal(0);
    expect(share.heldBy('a')).to.equal(0);
    flood(share, 4, 1, 'other');
    expect(share.used).to.equal(4);
  });

  it('keeps the late share at least one unit, so a newcomer always fits one largest record', () => {
    const limits = { total: 256, perCaller: 16, unit: 4 };
    expect(lateShare(limits)).to.equal(4);
    expect(shareRefusal(limits, 200, 0, 4)).to.equal(undefined);
    expect(shareRefusal(limits, 200, 1, 4)).to.deep.equal({ scope: 'client', limit: 4, late: true });
  });

  describe('the default figures (docs/security.md, "Fair shares")', () => {
    const MIB = 1024 * 1024;

    it('the request gate: one caller holds 64 of 256; it takes 19 callers to fill it', () => {
      const share = new FairShare({ total: 256, perCaller: 64 });
      const refused = flood(share, 1, 256);
      expect(share.used).to.equal(64);
      expect(refused).to.have.length(192);
      expect(callersToFill(new FairShare({ total: 256, perCaller: 64 }))).to.equal(19);
    });

    it('listen streams and waiting calls: it takes 152 callers to fill 512 at 16 each (32 before)', () => {
      expect(callersToFill(new FairShare({ total: 512, perCaller: 16 }))).to.equal(152);
    });

    it('the in-memory task store: 20 callers at 16 MiB leave room; it takes 76 to fill 256 MiB', () => {
      const limits = { total: 256 * MIB, perCaller: 16 * MIB, unit: MIB };
      const share = new FairShare(limits);
      for (let c = 0; c < 20; c++) while (share.take(`owner-${c}`, MIB) === undefined);
      expect(share.used).to.equal(12 * 16 * MIB + 8 * MIB);
      expect(share.take('newcomer', MIB)).to.equal(undefined);
      expect(callersToFill(new FairShare(limits), MIB)).to.equal(76);
    });
  });
});
