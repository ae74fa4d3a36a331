/** MemoryTaskStore.list: the shared listing cases, and records past their retention left out. */
import { expect } from 'chai';
import { MemoryTaskStore } from '../../../server/engine/index.js';
import { listedRecord, listingCases } from './task-listing-cases.js';

describe('MemoryTaskStore.list', () => {
  listingCases(() => new MemoryTaskStore());

  it('leaves out a record whose ttl and retention have run out', async () => {
    let now = 1_700_000_000_000;
    const store = new MemoryTaskStore({ clock: () => now });
    await store.create(listedRecord('old', { createdAt: now, lastUpdatedAt: now, ttlMs: 1000 }));
    expect((await store.list()).tasks).to.have.length(1);
    now += 1000 + 60_000;
    expect((await store.list()).tasks).to.deep.equal([]);
  });

  it('reads at most a bounded number of tasks per page when a filter matches none, and hands back a cursor', async () => {
    const base = 1_700_000_000_000;
    const store = new MemoryTaskStore({ clock: () => base + 10_000 });
    for (let n = 0; n < 2100; n++)
      await store.create(listedRecord(`t${n}`, { createdAt: base, lastUpdatedAt: base + n }));
    const page = await store.list({ tool: 'none' });
    expect(page.tasks).to.deep.equal([]);
    expect(page.cursor).to.be.a('string');
    const rest = await store.list({ tool: 'none', cursor: page.cursor });
    expect(rest).to.deep.equal({ tasks: [] });
  });
});
