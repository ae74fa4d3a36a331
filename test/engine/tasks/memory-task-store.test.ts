/**
 * The in-memory task store copies records in and out: whatever a caller does to an object it gave
 * or got, the stored record changes only through `update`.
 */
import { expect } from 'chai';
import { MemoryTaskStore, type TaskRecord } from '../../../server/engine/index.js';
import { queuedRecord } from './queued-record.js';

const QUOTAS = { liveTasksPerClient: 100, bytesPerClient: 1024 * 1024, recordBytes: 64 * 1024 };

describe('MemoryTaskStore', () => {
  it('keeps a copy of what it is given, and hands out copies', async () => {
    const store = new MemoryTaskStore();
    const given = queuedRecord('owner', { arguments: { list: [1] } });
    await store.create(given);
    (given.arguments.list as number[]).push(2);
    const got = (await store.get(given.taskId))!;
    expect(got.arguments).to.deep.equal({ list: [1] });
    (got.arguments.list as number[]).push(3);
    expect((await store.get(given.taskId))!.arguments).to.deep.equal({ list: [1] });
  });

  it('stores a copy of the changed record: neither the object changed nor the one returned reach it later', async () => {
    const store = new MemoryTaskStore();
    const given = queuedRecord('owner', { arguments: { list: [1] } });
    await store.create(given);
    let changed: TaskRecord | undefined;
    const returned = await store.update(given.taskId, (record) => {
      (record.arguments.list as number[]).push(2);
      changed = record;
      return record;
    });
    expect(returned!.arguments).to.deep.equal({ list: [1, 2] });
    (changed!.arguments.list as number[]).push(3);
    (returned!.arguments.list as number[]).push(4);
    expect((await store.get(given.taskId))!.arguments).to.deep.equal({ list: [1, 2] });
    // A change left undone hands back a copy of the stored record.
    const unchanged = await store.update(given.taskId, () => undefined);
    (unchanged!.arguments.list as number[]).push(5);
    expect((await store.get(given.taskId))!.arguments).to.deep.equal({ list: [1, 2] });
  });

  it('counts the bytes records hold, as serialized, when quotas are in force', async () => {
    const store = new MemoryTaskStore();
    store.useQuotas(QUOTAS);
    const small = queuedRecord('owner', { arguments: { text: 'x' } });
    await store.create(small);
    const held = store.heldBytes;
    expect(held).to.be.within(100, 2000);
    await store.update(small.taskId, (record) => ({ ...record, arguments: { text: 'x'.repeat(10_000) } }));
    expect(store.heldBytes).to.be.within(held + 9_990, held + 10_100);
  });
});
