/**
 * The in-memory task store's total, shared fairly (engine/fair-share.ts). 20 addresses at their
 * 16 MiB each once filled the 256 MiB an instance holds, and nobody could start a task for up to
 * 24 h. Here the same ratios at a small scale (2 MiB in all, 128 KiB per owner, 8 KiB per record):
 * past three quarters full, only owners holding no more than one largest record store more, so a
 * newcomer's task still fits.
 */
import { expect } from 'chai';
import { MemoryTaskStore, TaskLimitError, type TaskQuotas, type TaskRecord } from '../../../server/engine/index.js';
import { queuedRecord } from './queued-record.js';

const KIB = 1024;
const QUOTAS: TaskQuotas = { liveTasksPerClient: 100, bytesPerClient: 128 * KIB, recordBytes: 8 * KIB };
const TOTAL = 2048 * KIB;

function record(owner: string, text = 'x'.repeat(6000)): TaskRecord {
  return queuedRecord(owner, { arguments: { text } });
}

/** Stores tasks for `owner` until one is refused; answers that refusal. */
async function fill(store: MemoryTaskStore, owner: string): Promise<TaskLimitError> {
  for (;;) {
    const error = await store.create(record(owner)).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (error) {
      expect(error).to.be.instanceOf(TaskLimitError);
      return error as TaskLimitError;
    }
  }
}

describe('MemoryTaskStore fair shares of its total', () => {
  let store: MemoryTaskStore;
  beforeEach(() => {
    store = new MemoryTaskStore({ maxBytes: TOTAL });
    store.useQuotas(QUOTAS);
  });

  it("leaves room for a newcomer's task after 20 owners each stored all they were allowed", async () => {
    const refusals = [];
    for (let owner = 0; owner < 20; owner++) refusals.push(await fill(store, `address-${owner}`));
    expect(store.heldBytes).to.be.below(TOTAL);
    // Every refusal was the owner's own (429), never the store's (503): others were still admitted.
    for (const refusal of refusals) {
      expect(refusal.limit).to.equal('task_bytes');
      expect(refusal.scope).to.equal('client');
    }
    await store.create(record('newcomer'));
  });

  it('refuses an owner past the late share with task_bytes, naming the late share, once three quarters full', async () => {
    // About 12 owners at their 128 KiB reach three quarters of 2 MiB; the first refused by the
    // late share (one record, 8 KiB) rather than its quota marks it.
    let refusal: TaskLimitError | undefined;
    for (let owner = 0; owner < 20 && refusal?.value !== QUOTAS.recordBytes; owner++) {
      refusal = await fill(store, `early-${owner}`);
    }
    expect(store.heldBytes).to.be.above((TOTAL * 3) / 4 - 8 * KIB);
    await store.create(record('late'));
    const error = await store.create(record('late')).then(
      () => undefined,
      (e: TaskLimitError) => e,
    );
    expect(error?.limit).to.equal('task_bytes');
    expect(error?.scope).to.equal('client');
    // The late share is one largest record: a newcomer's largest task always fits.
    expect(error?.data).to.deep.equal({ reason: 'task_bytes', scope: 'client', limit: QUOTAS.recordBytes });
    await store.create(record('another-newcomer', 'x'.repeat(7800)));
  });

  it("still refuses everyone with task_store_full once the store's total is held", async () => {
    const small = new MemoryTaskStore({ maxBytes: 64 * KIB });
    small.useQuotas({ ...QUOTAS, bytesPerClient: 64 * KIB });
    let error: TaskLimitError | undefined;
    for (let owner = 0; owner < 100 && !error; owner++) {
      error = await small.create(record(`owner-${owner}`)).then(
        () => undefined,
        (e: TaskLimitError) => e,
      );
    }
    expect(error?.limit).to.equal('task_store_full');
    expect(error?.scope).to.equal('instance');
  });
});
