/**
 * The deadline cases every task store must pass (TaskStore.claimExpired, for the expiry sweep): the
 * memory store runs them in the fast loop, the Redis store against a real redis-server.
 */
import { expect } from 'chai';
import type { TaskRecord, TaskStore } from '../../../server/engine/index.js';
import { queuedRecord } from './queued-record.js';

export interface DeadlineStore {
  store: TaskStore;
  /** Deletes a record as its retention's end would, leaving the store's other keys alone. */
  deleteRecord(taskId: string): Promise<void>;
}

const TTL = 60_000;
const LEASE = 1000;

export function deadlineCases(make: () => Promise<DeadlineStore> | DeadlineStore): void {
  let store: TaskStore;
  let deleteRecord: DeadlineStore['deleteRecord'];
  let createdAt: number;
  beforeEach(async () => {
    ({ store, deleteRecord } = await make());
    createdAt = Date.now();
  });

  const create = async () => {
    const record = queuedRecord('owner', { createdAt, lastUpdatedAt: createdAt, ttlMs: TTL });
    await store.create(record);
    return record.taskId;
  };
  const end = (taskId: string) =>
    store.update(taskId, (r): TaskRecord => ({ ...r, status: 'completed', result: { content: [] } }));
  const claim = (at: number, limit = 10) => store.claimExpired(createdAt + at, limit, LEASE);

  it('hands out a task once its ttl has run out, and again only after its lease', async () => {
    const taskId = await create();
    expect(await claim(TTL - 1)).to.deep.equal([]);
    expect(await claim(TTL)).to.deep.equal([taskId]);
    expect(await claim(TTL + LEASE - 1), 'within the lease').to.deep.equal([]);
    expect(await claim(TTL + LEASE), 'after the lease').to.deep.equal([taskId]);
  });

  it('keeps a deadline through writes that do not end the task', async () => {
    const taskId = await create();
    await store.update(taskId, (r) => ({ ...r, phase: 'running' }));
    expect(await claim(TTL - 1)).to.deep.equal([]);
    expect(await claim(TTL)).to.deep.equal([taskId]);
  });

  it('never hands out a task that ended, before its ttl or while leased', async () => {
    const ended = await create();
    const open = await create();
    await end(ended);
    expect(await claim(TTL)).to.deep.equal([open]);
    await end(open);
    expect(await claim(TTL + LEASE)).to.deep.equal([]);
  });

  it('drops a task whose record was deleted', async () => {
    const taskId = await create();
    await deleteRecord(taskId);
    expect(await claim(TTL)).to.deep.equal([]);
    expect(await claim(TTL + LEASE)).to.deep.equal([]);
  });

  it('hands out at most `limit` at once, the rest to the next claims', async () => {
    const ids = [await create(), await create(), await create(), await create(), await create()];
    const first = await claim(TTL, 2);
    const second = await claim(TTL, 2);
    const third = await claim(TTL, 2);
    expect([first.length, second.length, third.length]).to.deep.equal([2, 2, 1]);
    expect([...first, ...second, ...third].sort()).to.deep.equal([...ids].sort());
  });
}
