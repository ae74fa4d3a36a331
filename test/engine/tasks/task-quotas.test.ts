/**
 * The task store's quotas, on the in-memory store: what one owner may keep (tasks not ended,
 * bytes of records), the size of one record, and the store's total, each refused with a
 * TaskLimitError before anything is stored.
 */
import { expect } from 'chai';
import { MemoryTaskStore, TaskLimitError, type TaskQuotas, type TaskRecord } from '../../../server/engine/index.js';
import { queuedRecord } from './queued-record.js';
import { terminalFields } from '../../../server/engine/tasks/task-record.js';

const QUOTAS: TaskQuotas = { liveTasksPerClient: 3, bytesPerClient: 64 * 1024, recordBytes: 16 * 1024 };

function record(owner: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return queuedRecord(owner, overrides);
}

async function refusal(promise: Promise<unknown>): Promise<TaskLimitError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(TaskLimitError);
  return error as TaskLimitError;
}

describe('MemoryTaskStore quotas', () => {
  let store: MemoryTaskStore;
  beforeEach(() => {
    store = new MemoryTaskStore({ maxBytes: 256 * 1024 });
    store.useQuotas(QUOTAS);
  });

  it("refuses an owner's task past its live tasks, while another owner still stores", async () => {
    for (let i = 0; i < 3; i++) await store.create(record('alice'));
    const error = await refusal(store.create(record('alice')));
    expect(error.limit).to.equal('live_tasks');
    expect(error.scope).to.equal('client');
    expect(error.data).to.deep.equal({ reason: 'live_tasks', scope: 'client', limit: 3 });
    await store.create(record('bob'));
  });

  it('counts a task that ended as no longer live, and drops its arguments', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = record('carol', { arguments: { text: 'x'.repeat(1000) } });
      ids.push(r.taskId);
      await store.create(r);
    }
    const before = store.heldBytes;
    await store.update(ids[0]!, (r) => ({ ...r, ...terminalFields(), status: 'completed', result: { content: [] } }));
    expect((await store.get(ids[0]!))!.arguments).to.deep.equal({});
    expect(store.heldBytes).to.be.below(before);
    await store.create(record('carol'));
  });

  it("refuses an owner's task past its bytes, finished tasks included", async () => {
    const big = { text: 'x'.repeat(12 * 1024) };
    const stored: string[] = [];
    let error: TaskLimitError | undefined;
    for (let i = 0; i < 10 && !error; i++) {
      const r = record('dave', { arguments: big });
      error = await store.create(r).then(
        () => void stored.push(r.taskId),
        (e: TaskLimitError) => e,
      );
      // Ended at once: not live any more, but its result still counts until it is deleted.
      if (!error)
        await store.update(r.taskId, (t) => ({
          ...t,
          ...terminalFields(),
          status: 'completed',
          result: { content: [{ type: 'text', ...big }] },
        }));
    }
    expect(error?.limit).to.equal('task_bytes');
    expect(stored.length).to.be.within(2, 6);
  });

  it('refuses a record larger than one task, when stored and when changed', async () => {
    expect((await refusal(store.create(record('erin', { arguments: { text: 'x'.repeat(20_000) } })))).limit).to.equal(
      'task_record_bytes',
    );
    const r = record('erin');
    await store.create(r);
    const error = await refusal(store.update(r.taskId, (t) => ({ ...t, answers: { a: 'x'.repeat(20_000) } })));
    expect(error.limit).to.equal('task_record_bytes');
    expect((await store.get(r.taskId))!.answers).to.deep.equal({});
  });

  it("refuses any owner's task once all records together reach the store's bytes", async () => {
    const big = { text: 'x'.repeat(15_000) };
    let error: TaskLimitError | undefined;
    for (let owner = 0; owner < 40 && !error; owner++) {
      error = await store.create(record(`owner-${owner}`, { arguments: big })).then(
        () => undefined,
        (e: TaskLimitError) => e,
      );
    }
    expect(error?.limit).to.equal('task_store_full');
    expect(error?.scope).to.equal('instance');
  });

  it('keeps no quotas until told to', async () => {
    const free = new MemoryTaskStore();
    for (let i = 0; i < 5; i++) await free.create(record('frank', { arguments: { text: 'x'.repeat(20_000) } }));
  });
});
