/**
 * The text of the records an instance sealed last: read back only for the very body it sealed,
 * a fresh object each time, and bounded.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { KeyRing } from '../../../server/engine/index.js';
import { sealStateText, type SealedContent } from '../../../server/engine/state/sealed-state.js';
import { SealedRecordCache } from '../../../server/engine/tasks/sealed-record-cache.js';

const keyRing = new KeyRing([{ id: 'k1', secret: new Uint8Array(randomBytes(32)) }]);

function sealed(id: string, snapshot: unknown) {
  const content: SealedContent = {
    claims: {
      principal: 'p',
      target: 'task t',
      args: '',
      version: 'v',
      issuedAt: 1,
      expiresAt: 2,
      id,
      round: 0,
      asked: [],
      singleUse: false,
    },
    snapshot,
  };
  return sealStateText(content, { keyRing, randomBytes: (n) => new Uint8Array(randomBytes(n)) });
}

describe('SealedRecordCache', () => {
  it('reads back the text of the body it was told of, and of no other body', () => {
    const cache = new SealedRecordCache();
    const first = sealed('t1', { n: 1 });
    cache.remember('t1', first);
    expect(cache.recall('t1', first.token)?.snapshot).to.deep.equal({ n: 1 });
    expect(cache.recall('t1', first.token)?.claims.id).to.equal('t1');
    // Another body under the same task (a newer revision, another instance's write): not known here.
    expect(cache.recall('t1', sealed('t1', { n: 1 }).token)).to.equal(undefined);
    // The same body under another task id.
    expect(cache.recall('t2', first.token)).to.equal(undefined);
    // A newer write replaces the older.
    const second = sealed('t1', { n: 2 });
    cache.remember('t1', second);
    expect(cache.recall('t1', first.token)).to.equal(undefined);
    expect(cache.recall('t1', second.token)?.snapshot).to.deep.equal({ n: 2 });
    cache.forget('t1');
    expect(cache.recall('t1', second.token)).to.equal(undefined);
  });

  it('hands out a fresh object each time, so a caller changing one changes nothing kept', () => {
    const cache = new SealedRecordCache();
    const body = sealed('t1', { list: [1] });
    cache.remember('t1', body);
    (cache.recall('t1', body.token)!.snapshot as { list: number[] }).list.push(2);
    expect(cache.recall('t1', body.token)?.snapshot).to.deep.equal({ list: [1] });
  });

  it('keeps superjson text as superjson', () => {
    const cache = new SealedRecordCache();
    const body = sealed('t1', { when: new Date(5), gone: undefined });
    expect(body.json).to.equal(false);
    cache.remember('t1', body);
    const snapshot = cache.recall('t1', body.token)?.snapshot as { when: Date; gone: undefined };
    expect(snapshot.when).to.be.instanceOf(Date);
    expect(snapshot).to.have.property('gone');
  });

  it('keeps the latest 1,024 records, and none too large to be worth it', () => {
    const cache = new SealedRecordCache();
    const bodies = Array.from({ length: 1030 }, (_, i) => sealed(`t${i}`, { i }));
    bodies.forEach((body, i) => cache.remember(`t${i}`, body));
    expect(cache.size).to.equal(1024);
    expect(cache.recall('t0', bodies[0]!.token)).to.equal(undefined);
    expect(cache.recall('t5', bodies[5]!.token)).to.equal(undefined);
    expect(cache.recall('t6', bodies[6]!.token)?.snapshot).to.deep.equal({ i: 6 });
    expect(cache.recall('t1029', bodies[1029]!.token)?.snapshot).to.deep.equal({ i: 1029 });
    const large = sealed('big', { text: 'x'.repeat(300 * 1024) });
    cache.remember('big', large);
    expect(cache.recall('big', large.token)).to.equal(undefined);
  });

  it('holds at most 8 Mi characters in all, text and sealed bodies, letting the oldest go', () => {
    const cache = new SealedRecordCache();
    const bodies = Array.from({ length: 40 }, (_, i) => sealed(`t${i}`, { i, text: 'x'.repeat(250 * 1024) }));
    bodies.forEach((body, i) => cache.remember(`t${i}`, body));
    // 40 of some 250 Ki characters each: only the last 32 fit.
    expect(cache.size).to.equal(32);
    expect(cache.recall('t0', bodies[0]!.token)).to.equal(undefined);
    expect(cache.recall('t39', bodies[39]!.token)).not.to.equal(undefined);
    // Text that does not compress: each sealed body holds as much again, and counts too.
    const dense = new SealedRecordCache();
    const noise = Array.from({ length: 40 }, (_, i) =>
      sealed(`n${i}`, { text: randomBytes(150 * 1024).toString('base64') }),
    );
    noise.forEach((body, i) => dense.remember(`n${i}`, body));
    // Some 200 Ki characters of text and as many of body each: 20 fit, where text alone would keep all 40.
    expect(dense.size).to.equal(20);
  });
});
