/**
 * The listing cases every task store must pass (TaskStore.list): the memory store runs them in the
 * fast loop, the Redis store against a real redis-server. One suite, so both answer alike.
 */
import { expect } from 'chai';
import {
  TaskQueryError,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
  type TaskSummary,
} from '../../../server/engine/index.js';

export const SECRET_ARGUMENT = 'argument-value-never-listed';
export const SECRET_ANSWER = 'answer-value-never-listed';
export const SECRET_CONTEXT = 'context-value-never-listed';

/** A record as the manager stores it, with values a listing must never carry. */
export function listedRecord(taskId: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = overrides.lastUpdatedAt ?? Date.now();
  return {
    taskId,
    principal: 'principal-digest',
    tool: 'ship-release',
    arguments: { secret: SECRET_ARGUMENT },
    version: 'v1',
    clientCapabilities: {},
    status: 'input_required',
    phase: 'idle',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60 * 60_000,
    pollIntervalMs: 1000,
    snapshot: { status: 'active', value: { ship: 'approve' }, context: { secret: SECRET_CONTEXT } },
    timers: [],
    asked: {
      approve: {
        questionKey: 'approve',
        request: { method: 'elicitation/create', params: { message: 'Ship?' } } as never,
        askedAt: now,
      },
    },
    answers: { approve: { action: 'accept', content: { note: SECRET_ANSWER } } },
    answeredAt: { approve: now },
    askCounts: { approve: 1 },
    cancelRequested: false,
    ...overrides,
  };
}

/** Every page from the first, in order. */
export async function allPages(store: TaskStore, query: Parameters<TaskStore['list']>[0] = {}): Promise<TaskPage[]> {
  const pages: TaskPage[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ ...query, ...(cursor ? { cursor } : {}) });
    pages.push(page);
    cursor = page.cursor;
  } while (cursor);
  return pages;
}

const ids = (tasks: TaskSummary[]) => tasks.map((t) => t.taskId);

/** `make` gives an empty store of its own per case (a fresh prefix for Redis). */
export function listingCases(make: () => Promise<TaskStore> | TaskStore): void {
  // Near now: Redis deletes a record whose retention is past as it is stored.
  let base = 0;
  beforeEach(() => {
    base = Date.now() - 60_000;
  });

  it('lists the most recently changed first, and pages through ties in changed time without loss or repeat', async () => {
    const store = await make();
    // Five share one millisecond: the cursor must split them exactly.
    const times = [base + 1, base + 2, base + 2, base + 2, base + 2, base + 2, base + 3];
    for (const [n, t] of times.entries())
      await store.create(listedRecord(`t${n}`, { lastUpdatedAt: t, createdAt: base }));
    const pages = await allPages(store, { limit: 2 });
    expect(pages.map((p) => p.tasks.length)).to.deep.equal([2, 2, 2, 1]);
    expect(pages.at(-1)!.cursor).to.equal(undefined);
    expect(ids(pages.flatMap((p) => p.tasks))).to.deep.equal(['t6', 't5', 't4', 't3', 't2', 't1', 't0']);
  });

  it('moves a task to the front when it changes', async () => {
    const store = await make();
    await store.create(listedRecord('a', { lastUpdatedAt: base + 1 }));
    await store.create(listedRecord('b', { lastUpdatedAt: base + 2 }));
    await store.update('a', (r) => ({ ...r, lastUpdatedAt: base + 3, status: 'working', phase: 'queued' }));
    const page = await store.list();
    expect(ids(page.tasks)).to.deep.equal(['a', 'b']);
    expect(page.tasks[0]).to.include({ status: 'working', phase: 'queued', lastUpdatedAt: base + 3 });
  });

  it('filters by status, tool and time of last change, and says nothing of the rest', async () => {
    const store = await make();
    await store.create(listedRecord('w', { lastUpdatedAt: base + 1, status: 'working', phase: 'running' }));
    await store.create(listedRecord('i', { lastUpdatedAt: base + 2 }));
    await store.create(listedRecord('o', { lastUpdatedAt: base + 3, tool: 'other' }));
    await store.create(listedRecord('c', { lastUpdatedAt: base + 4, status: 'completed', snapshot: undefined }));
    const flat = async (query: Parameters<TaskStore['list']>[0]) =>
      ids((await allPages(store, query)).flatMap((p) => p.tasks));
    expect(await flat({ status: ['input_required'] })).to.deep.equal(['o', 'i']);
    expect(await flat({ status: ['working', 'completed'] })).to.deep.equal(['c', 'w']);
    expect(await flat({ tool: 'other' })).to.deep.equal(['o']);
    expect(await flat({ changedBefore: base + 2 })).to.deep.equal(['i', 'w']);
    expect(await flat({ changedAfter: base + 3 })).to.deep.equal(['c', 'o']);
    expect(await flat({ tool: 'none' })).to.deep.equal([]);
  });

  it('summarises a task without its arguments, answers or context, with its state, questions and times', async () => {
    const store = await make();
    await store.create(
      listedRecord('s', {
        lastUpdatedAt: base + 5,
        createdAt: base,
        traceContext: `${'a'.repeat(32)}-${'b'.repeat(16)}-${'c'.repeat(16)}-01`,
        timers: [{ id: 'xstate.after.1000.ship.wait', event: { type: 'secret-event' }, dueAt: base + 9 }],
      }),
    );
    const [task] = (await store.list()).tasks;
    const text = JSON.stringify(task);
    for (const secret of [SECRET_ARGUMENT, SECRET_ANSWER, SECRET_CONTEXT, 'secret-event', 'Ship?']) {
      expect(text).not.to.include(secret);
    }
    expect(task).to.deep.include({
      taskId: 's',
      tool: 'ship-release',
      status: 'input_required',
      phase: 'idle',
      states: ['ship.approve'],
      createdAt: base,
      lastUpdatedAt: base + 5,
      traceId: 'a'.repeat(32),
      claimed: false,
      timers: [{ id: 'xstate.after.1000.ship.wait', dueAt: base + 9 }],
    });
    expect(task!.questions).to.deep.equal([
      { key: 'approve', questionKey: 'approve', answered: true, askedAt: base + 5, answeredAt: base + 5 },
    ]);
  });

  it('refuses a cursor that is not one, and a page size out of range', async () => {
    const store = await make();
    for (const query of [{ cursor: 'nonsense' }, { limit: 0 }, { limit: 100_000 }]) {
      let error: unknown;
      await store.list(query).catch((e) => (error = e));
      expect(error, JSON.stringify(query)).to.be.instanceOf(TaskQueryError);
    }
  });
}
