/**
 * `baton tasks` against a store (runTasks, in process): scriptable output, exit codes (0 done,
 * 1 no such task, 2 usage), cancel the way tasks/cancel does, and nothing of a task's arguments
 * or answers printed.
 */
import { expect } from 'chai';
import { MemoryTaskStore, type TaskStore } from '../../server/engine/index.js';
import { UsageError } from '../../server/cli/command-line.js';
import { runTasks, type TasksCommandOptions } from '../../server/cli/tasks-command.js';
import { listedRecord, SECRET_ANSWER, SECRET_ARGUMENT } from '../engine/tasks/task-listing-cases.js';

const NOW = 1_800_000_000_000;

async function run(store: TaskStore, action: string, id?: string, values: TasksCommandOptions = {}) {
  let out = '';
  let err = '';
  const code = await runTasks(action, id, values, {
    store,
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    clock: () => NOW,
  });
  return { code, out, err };
}

async function usageError(store: TaskStore, action: string, id?: string, values: TasksCommandOptions = {}) {
  let error: unknown;
  await run(store, action, id, values).catch((e) => (error = e));
  expect(error, `${action} ${id ?? ''} ${JSON.stringify(values)}`).to.be.instanceOf(UsageError);
  return (error as UsageError).exitCode;
}

describe('baton tasks', () => {
  let store: MemoryTaskStore;
  beforeEach(async () => {
    store = new MemoryTaskStore({ clock: () => NOW });
    await store.create(listedRecord('waiting1', { createdAt: NOW - 300_000, lastUpdatedAt: NOW - 60_000 }));
    await store.create(
      listedRecord('running1', {
        tool: 'provision-database',
        status: 'working',
        phase: 'running',
        runningJob: 'job-7',
        runningStep: 'claim-token',
        createdAt: NOW - 900_000,
        lastUpdatedAt: NOW - 600_000,
      }),
    );
    await store.create(
      listedRecord('done1', {
        status: 'completed',
        snapshot: undefined,
        result: { content: [{ type: 'text', text: 'shipped' }] },
        createdAt: NOW - 90_000,
        lastUpdatedAt: NOW - 30_000,
      }),
    );
  });

  it('lists every task as JSON, newest change first, and filters by status and tool', async () => {
    const all = await run(store, 'list', undefined, { json: true });
    expect(all.code).to.equal(0);
    const listed = JSON.parse(all.out);
    expect(listed.tasks.map((t: { taskId: string }) => t.taskId)).to.deep.equal(['done1', 'waiting1', 'running1']);
    expect(listed.tasks[1]).to.include({
      status: 'input_required',
      lastUpdatedAt: new Date(NOW - 60_000).toISOString(),
    });
    expect(listed.tasks[1].states).to.deep.equal(['ship.approve']);
    expect(all.out).not.to.include(SECRET_ARGUMENT).and.not.to.include(SECRET_ANSWER).and.not.to.include('claim-token');
    const some = JSON.parse(
      (await run(store, 'list', undefined, { json: true, status: 'working,completed', tool: 'ship-release' })).out,
    );
    expect(some.tasks.map((t: { taskId: string }) => t.taskId)).to.deep.equal(['done1']);
  });

  it('prints a table with a header and one line per task, ages included', async () => {
    const { code, out } = await run(store, 'list');
    expect(code).to.equal(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]!.split(/\s+/)).to.deep.equal([
      'ID',
      'TOOL',
      'STATUS',
      'PHASE',
      'STATE',
      'AGE',
      'CHANGED',
      'INSTANCE',
      'JOB',
      'TRACE',
    ]);
    expect(lines[3]!.split(/\s+/)).to.deep.equal([
      'running1',
      'provision-database',
      'working',
      'running',
      'ship.approve',
      '15m',
      '10m',
      '-',
      'job-7',
      '-',
    ]);
  });

  it('pages through the store to --limit, and hands back the cursor to go on from', async () => {
    for (let n = 0; n < 120; n++)
      await store.create(listedRecord(`bulk${n}`, { createdAt: NOW, lastUpdatedAt: NOW - 1000 - n }));
    const first = JSON.parse((await run(store, 'list', undefined, { json: true, limit: '70' })).out);
    expect(first.tasks).to.have.length(70);
    const rest = JSON.parse(
      (await run(store, 'list', undefined, { json: true, limit: '1000', cursor: first.cursor })).out,
    );
    expect(rest.cursor).to.equal(undefined);
    expect(new Set([...first.tasks, ...rest.tasks].map((t: { taskId: string }) => t.taskId)).size).to.equal(123);
  });

  it('lists the stuck tasks with why', async () => {
    const { out } = await run(store, 'list', undefined, { stuck: true, json: true });
    expect(
      JSON.parse(out).tasks.map((t: { taskId: string; reasons: string[] }) => [t.taskId, t.reasons]),
    ).to.deep.equal([['running1', ['running_unchanged']]]);
  });

  it('shows one task, and exits 1 for a task the store does not hold', async () => {
    const shown = await run(store, 'show', 'done1', { json: true });
    expect(shown.code).to.equal(0);
    expect(JSON.parse(shown.out)).to.deep.include({
      taskId: 'done1',
      status: 'completed',
      result: { content: [{ type: 'text', text: 'shipped' }] },
    });
    const text = await run(store, 'show', 'waiting1');
    expect(text.out).to.match(/^question: +approve \(answered\) asked /m);
    const missing = await run(store, 'show', 'nope');
    expect(missing).to.deep.include({ code: 1, out: '' });
  });

  it('cancels a waiting task at once, asks a running one to stop, and exits 1 for none', async () => {
    expect(await run(store, 'cancel', 'waiting1', { json: true })).to.deep.include({
      code: 0,
      out: '{"taskId":"waiting1","outcome":"cancelled"}\n',
    });
    expect((await store.get('waiting1'))!.status).to.equal('cancelled');
    expect((await run(store, 'cancel', 'running1')).out).to.match(/^running1 cancel requested/);
    expect((await store.get('running1'))!.cancelRequested).to.equal(true);
    expect((await run(store, 'cancel', 'done1')).out).to.equal('done1 already completed: nothing to cancel\n');
    expect((await run(store, 'cancel', 'nope')).code).to.equal(1);
  });

  it('answers a command line it cannot take with a usage error (exit 2)', async () => {
    expect(await usageError(store, 'remove', 'x')).to.equal(2);
    expect(await usageError(store, 'show')).to.equal(2);
    expect(await usageError(store, 'list', 'x')).to.equal(2);
    expect(await usageError(store, 'cancel', 'x', { status: 'working' })).to.equal(2);
    expect(await usageError(store, 'list', undefined, { status: 'stuck' })).to.equal(2);
    expect(await usageError(store, 'list', undefined, { limit: '0' })).to.equal(2);
    expect(await usageError(store, 'list', undefined, { cursor: 'not-a-cursor' })).to.equal(2);
  });
});
