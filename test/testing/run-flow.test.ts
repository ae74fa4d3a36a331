import { expect } from 'chai';
import { accept, decline, runFlow } from '../../server/testing/index.js';
import { releaseTool } from '../../machines/examples/release.js';
import { shipReleaseTool } from '../../machines/examples/ship-release.js';
import { flawedTool } from './fixtures.js';

describe('runFlow', () => {
  it('runs a tool through real rounds with sealed state, answering by key', async () => {
    const run = await runFlow(
      releaseTool,
      { service: 'billing', version: '1.0.0' },
      { window: accept({ window: 'tonight' }), confirm: accept({ confirm: true }) },
    );
    expect(run.outcome).to.equal('complete');
    expect(run.asked).to.deep.equal(['window', 'confirm']);
    expect(run.result?.isError).to.not.equal(true);
    expect(run.result?.structuredContent).to.include({ service: 'billing', version: '1.0.0' });
    // Each retry carried the sealed state the previous round handed out.
    const retries = run.rounds.slice(1).map((round) => round.request.params.requestState);
    expect(retries).to.have.length(2);
    for (const state of retries) expect(state).to.be.a('string');
  });

  it('takes a list to answer a question each time it is asked', async () => {
    const run = await runFlow(flawedTool(), {}, { ok: [decline(), decline(), accept({ ok: true })] });
    expect(run.asked).to.deep.equal(['ok', 'ok', 'ok']);
    expect(run.outcome).to.equal('complete');
  });

  it('stops a flow that keeps asking after maxRounds', async () => {
    const run = await runFlow(flawedTool(), {}, { ok: decline() }, { maxRounds: 4 });
    expect(run.outcome).to.equal('unfinished');
    expect(run.asked).to.have.length(4);
  });

  it('stops a task that keeps asking after maxRounds, saying why the server refused the answer', async () => {
    // The server refuses the over-long approver each time and asks again, inside the task.
    const started = Date.now();
    const run = await runFlow(
      shipReleaseTool,
      { service: 'billing', version: '3.0.0', bakeSeconds: 1 },
      { approve: accept({ approve: true, approver: 'x'.repeat(200) }) },
      { maxRounds: 4 },
    );
    expect(run.outcome).to.equal('unfinished');
    expect(run.asked).to.deep.equal(['approve', 'approve', 'approve', 'approve']);
    expect(run.refused?.key).to.equal('approve');
    expect(run.refused?.reason).to.match(/approver must NOT have more than 100 characters/);
    expect(run.rounds.filter((round) => round.request.method === 'tasks/update')).to.have.length(3);
    // The build takes about 1.2 s; the loop itself costs nothing more.
    expect(Date.now() - started).to.be.lessThan(10_000);
  });

  it('runs a tool with a task to its end, answering inside the task with tasks/update', async function () {
    this.timeout(20_000);
    const run = await runFlow(
      shipReleaseTool,
      { service: 'billing', version: '3.0.0', bakeSeconds: 1 },
      { approve: accept({ approve: true, approver: 'grace' }) },
    );
    expect(run.outcome).to.equal('complete');
    expect(run.rounds.some((round) => round.request.method === 'tasks/update')).to.equal(true);
    expect(run.result?.structuredContent).to.include({ shipped: true, approvedBy: 'grace', version: '3.0.0' });
  });
});
