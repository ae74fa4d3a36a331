/**
 * ship-release driven by the official requester library for tasks (`@modelcontextprotocol/ext-tasks`)
 * over the official client, as docs/clients.md tells an author to: every way a task can end, seen
 * through the library's own decoding (it checks every result against the extension's schemas, so
 * a completed task's `result` without `resultType: "complete"` settles as failed there).
 */
import { expect } from 'chai';
import type { ApplicationInputHandler, SerializedTaskReference } from '@modelcontextprotocol/ext-tasks/client';
import { countingShipRelease, type ShipReleaseCounter } from '../helpers/counting-ship-release.js';
import { openExtTasksSession, type ExtTasksSession } from '../helpers/ext-tasks-session.js';
import { isStatus, waitForTask } from '../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

type Handle = ApplicationInputHandler['handle'];

const ARGS = { service: 'billing', version: '2.5.0', bakeSeconds: 1 };

const approve: Handle = async () => ({ action: 'accept', content: { approve: true, approver: 'ada' } }) as never;
const decline: Handle = async () => ({ action: 'decline' }) as never;

/** A user who never answers: the question waits until the library stops asking (its signal). */
function neverAnswers(asked: () => void): Handle {
  return (_request, context) =>
    new Promise((_resolve, reject) => {
      asked();
      context.signal?.addEventListener('abort', () => reject(new Error('stopped asking')), { once: true });
    });
}

describe('ship-release through @modelcontextprotocol/ext-tasks over the official client', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let counter: ShipReleaseCounter;
  const open: ExtTasksSession[] = [];

  before(async () => {
    const ship = countingShipRelease();
    counter = ship.counter;
    server = await startTestServer({ tools: [ship.tool], tasks: { pollIntervalMs: 100 } });
  });
  beforeEach(() => {
    counter.buildsStarted = counter.buildsAborted = counter.promotions = 0;
  });
  afterEach(async () => {
    for (const session of open.splice(0)) await session.close().catch(() => {});
  });
  after(async () => {
    await server.baton.close();
    await server.close();
  });

  async function connect(onInputRequest?: Handle): Promise<ExtTasksSession> {
    const session = await openExtTasksSession(server.url, onInputRequest);
    open.push(session);
    return session;
  }

  it('approve: the task completes with the release as its result, promoted once', async () => {
    const { session } = await connect(approve);
    const execution = await session.callTool('ship-release', ARGS);
    expect(execution.kind).to.equal('task');
    const { outcome, lastTask } = await execution.settle();
    expect(outcome.status, JSON.stringify(outcome)).to.equal('completed');
    if (outcome.status !== 'completed') return;
    const result = outcome.result as { resultType: string; structuredContent: Record<string, unknown> };
    expect(result.resultType).to.equal('complete');
    expect(result.structuredContent).to.include({ shipped: true, approvedBy: 'ada' });
    // The last status a client sees names the end, not the last step on the way (issue 25, item 10).
    expect(lastTask?.statusMessage).to.equal('Completed');
    expect(counter.promotions).to.equal(1);
  });

  it('decline: the task completes with the refusal as its result, nothing promoted', async () => {
    const { session } = await connect(decline);
    const execution = await session.callTool('ship-release', ARGS);
    const { outcome } = await execution.settle();
    expect(outcome.status, JSON.stringify(outcome)).to.equal('completed');
    if (outcome.status !== 'completed') return;
    const result = outcome.result as { content: Array<{ text: string }>; isError?: boolean };
    expect(result.content[0]!.text).to.match(/not approved: nothing was promoted/);
    expect(result.isError).to.equal(undefined);
    expect(counter.promotions).to.equal(0);
  });

  it('cancel mid-build: the build is stopped and the task ends cancelled', async () => {
    const { session } = await connect(approve);
    const execution = await session.callTool('ship-release', ARGS);
    if (execution.kind !== 'task') throw new Error('expected a task');
    await waitForTask(server.url, execution.handle.taskId, (t) => /Building/.test(t.statusMessage ?? ''));
    await execution.cancel();
    const { outcome } = await execution.settle();
    expect(outcome.status, JSON.stringify(outcome)).to.equal('cancelled');
    const ended = await waitForTask(server.url, execution.handle.taskId, isStatus('cancelled'));
    expect(ended.status).to.equal('cancelled');
    expect(counter.buildsAborted).to.equal(1);
    expect(counter.promotions).to.equal(0);
  });

  it('cancel while waiting for the approval: the task ends cancelled, nothing promoted', async () => {
    let asked!: () => void;
    const question = new Promise<void>((resolve) => (asked = resolve));
    const { session } = await connect(neverAnswers(() => asked()));
    const execution = await session.callTool('ship-release', ARGS);
    if (execution.kind !== 'task') throw new Error('expected a task');
    await question;
    await execution.cancel();
    const { outcome } = await execution.settle();
    expect(outcome.status, JSON.stringify(outcome)).to.equal('cancelled');
    expect((await waitForTask(server.url, execution.handle.taskId, isStatus('cancelled'))).status).to.equal(
      'cancelled',
    );
    expect(counter.promotions).to.equal(0);
  });

  it('resume from a fresh session: a new client answers the question and the task completes', async () => {
    let asked!: () => void;
    const question = new Promise<void>((resolve) => (asked = resolve));
    const first = await connect(neverAnswers(() => asked()));
    const execution = await first.session.callTool('ship-release', ARGS);
    if (execution.kind !== 'task') throw new Error('expected a task');
    await question;
    let reference: SerializedTaskReference | undefined;
    await execution.handoff((ref) => {
      reference = JSON.parse(JSON.stringify(ref));
    });
    // Handed off, the execution settles locally as closed; only then does closing its session
    // leave the task alone (closing an unsettled execution cancels its task, by the library's design).
    await execution.result();
    await first.close();

    const second = await connect(approve);
    const resumed = await second.session.resumeTask(reference!);
    const { outcome } = await resumed.settle();
    expect(outcome.status, JSON.stringify(outcome)).to.equal('completed');
    if (outcome.status !== 'completed') return;
    expect((outcome.result as { structuredContent: object }).structuredContent).to.include({ shipped: true });
    expect(counter.promotions).to.equal(1);
  });

  it('a finished task resumed: the result is read back, nothing runs again', async () => {
    const { session } = await connect(approve);
    const execution = await session.callTool('ship-release', ARGS);
    if (execution.kind !== 'task') throw new Error('expected a task');
    const reference = execution.serializeReference();
    const first = await execution.settle();
    expect(first.outcome.status).to.equal('completed');

    const later = await connect();
    const resumed = await later.session.resumeTask(reference);
    const { outcome } = await resumed.settle();
    expect(outcome.status, JSON.stringify(outcome)).to.equal('completed');
    if (outcome.status !== 'completed' || first.outcome.status !== 'completed') return;
    expect(outcome.result).to.deep.equal(first.outcome.result);
    expect(counter.promotions).to.equal(1);
  });
});
