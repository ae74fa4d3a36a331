/**
 * A task's timeline (engine/tasks/task-history.ts): bounded, compact, values never kept; and a
 * ship-release task run end to end leaves created, each step's start and end on the instance
 * that ran it, the question asked and answered by key, and the states it went through.
 */
import { expect } from 'chai';
import {
  describeTask,
  MemoryTaskStore,
  MAX_HISTORY_ENTRIES,
  MAX_VISITED_STATES,
  summarizeTask,
  timelineOf,
  withHistory,
  type TaskHistory,
} from '../../../server/engine/tasks/index.js';
import { countingShipRelease } from '../../helpers/counting-ship-release.js';
import { startTestServer, type RunningServer } from '../../helpers/test-server.js';
import { resultOf, taskRpc, waitForTask } from '../../helpers/tasks.js';
import { listedRecord } from './task-listing-cases.js';

describe('task history', () => {
  it('keeps the last entries, counts the ones dropped, and times them after creation', () => {
    let record: { createdAt: number; history?: TaskHistory } = { createdAt: 1_000 };
    for (let n = 0; n < MAX_HISTORY_ENTRIES + 7; n++) {
      record = { ...record, history: withHistory(record, 1_000 + n, { e: 'start', i: 'a:1' }) };
    }
    expect(record.history!.entries).to.have.length(MAX_HISTORY_ENTRIES);
    expect(record.history!.dropped).to.equal(7);
    expect(record.history!.entries[0]).to.deep.equal({ t: 7, e: 'start', i: 'a:1' });
    expect(timelineOf(record)[0]).to.deep.equal({ at: 1_007, kind: 'start', instance: 'a:1' });
  });

  it('caps the states visited, without repeats', () => {
    const many = Array.from({ length: MAX_VISITED_STATES + 50 }, (_, n) => `s${n}`);
    const history = withHistory({ createdAt: 0 }, 0, { e: 'created' }, ['a', 'a', ...many]);
    expect(history.visited).to.have.length(MAX_VISITED_STATES);
    expect(history.visited!.slice(0, 2)).to.deep.equal(['a', 's0']);
  });

  it('reads a record stored before the history existed: no timeline, no instance', () => {
    const record = listedRecord('old', {});
    delete (record as { history?: unknown }).history;
    expect(summarizeTask(record).instance).to.equal(undefined);
    expect(describeTask(record).timeline).to.equal(undefined);
  });

  describe('a ship-release task run end to end', function () {
    this.timeout(30_000);
    let server: RunningServer;
    let store: MemoryTaskStore;

    before(async () => {
      store = new MemoryTaskStore();
      server = await startTestServer({
        tools: [countingShipRelease({ stepMs: 1 }).tool],
        instanceId: 'host-a:4242',
        tasks: { store },
      });
    });
    after(() => server?.close());

    it('records created, steps on their instance, the question by key, the answer without its value, the states', async () => {
      const created = resultOf(
        await taskRpc(server.url, 'tools/call', {
          name: 'ship-release',
          arguments: { service: 'api', version: '9.9.9', bakeSeconds: 3 },
        }),
      );
      const taskId = (created.task?.taskId ?? created.taskId) as string;
      await waitForTask(server.url, taskId, (t) => t.status === 'input_required');
      resultOf(
        await taskRpc(server.url, 'tasks/update', {
          taskId,
          inputResponses: { approve: { action: 'accept', content: { approve: true, approver: 'Secret Sam' } } },
        }),
      );
      await waitForTask(server.url, taskId, (t) => t.status === 'completed', { timeoutMs: 20_000 });
      const record = (await store.get(taskId))!;
      const detail = describeTask(record);
      const steps = detail.timeline!.map((e) => [e.kind, e.instance, e.ended, e.keys?.join(',')].filter(Boolean));
      expect(steps[0]).to.deep.equal(['created']);
      expect(steps).to.deep.include(['start', 'host-a:4242']);
      expect(steps).to.deep.include(['end', 'host-a:4242', 'asked', 'approve']);
      expect(steps).to.deep.include(['answered', 'approve']);
      expect(steps).to.deep.include(['end', 'host-a:4242', 'timer']);
      expect(steps.at(-1)).to.deep.equal(['end', 'host-a:4242', 'completed']);
      expect(detail.instance).to.equal('host-a:4242');
      expect(detail.visited).to.include.members(['building', 'awaitingApproval', 'baking', 'promoting', 'shipped']);
      const stored = JSON.stringify(record.history);
      expect(stored).not.to.include('Secret Sam').and.not.to.include('9.9.9');
      // Compact: the whole history of this task is a few hundred bytes.
      expect(Buffer.byteLength(stored)).to.be.below(700);
      const times = detail.timeline!.map((e) => e.at);
      expect(times).to.deep.equal([...times].sort((a, b) => a - b));
    });
  });
});
