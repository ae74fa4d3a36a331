import { expect } from 'chai';
import { MemoryReplayGuard, type GuardClaim, type ReplayGuard } from '../../../server/engine/index.js';
import { FlowEngine, EngineError } from '../../../server/engine/index.js';
import { releaseTool } from '../../../machines/examples/release.js';
import { testKeyRing } from '../../helpers/test-server.js';

describe('MemoryReplayGuard', () => {
  let now = 1_000_000;
  const guard = new MemoryReplayGuard({ clock: () => now });

  it('claims an id once; a second claim sees the run in progress, then its outcome', async () => {
    expect(await guard.claim('a', 60, now + 1000)).to.deep.equal({ status: 'claimed' });
    expect(await guard.claim('a', 60, now + 1000)).to.deep.equal({ status: 'in_progress' });
    await guard.settle('a', 'outcome-a');
    expect(await guard.claim('a', 60, now + 1000)).to.deep.equal({ status: 'settled', outcome: 'outcome-a' });
  });

  it('counts a claim whose run missed its deadline as abandoned, never as free', async () => {
    await guard.claim('b', 60, now + 1000);
    now += 1001;
    expect(await guard.claim('b', 60, now + 1000)).to.deep.equal({ status: 'abandoned' });
  });

  it('frees an id once the state it guards has expired', async () => {
    await guard.claim('c', 1, now + 500);
    await guard.settle('c', 'done');
    now += 1500;
    expect(await guard.claim('c', 1, now + 500)).to.deep.equal({ status: 'claimed' });
  });

  it('gives a claim back on release', async () => {
    await guard.claim('d', 60, now + 1000);
    await guard.release('d');
    expect(await guard.claim('d', 60, now + 1000)).to.deep.equal({ status: 'claimed' });
  });

  it('stays within maxEntries by failing closed, never by forgetting a live claim', async () => {
    const small = new MemoryReplayGuard({ clock: () => now, maxEntries: 3 });
    for (const id of ['1', '2', '3']) await small.claim(id, 60, now + 1000);
    let refused: unknown;
    await small.claim('4', 60, now + 1000).catch((error: unknown) => (refused = error));
    expect(String(refused)).to.match(/holds 3 live claims/);
    // Nothing was forgotten: the first state still cannot run again.
    expect(await small.claim('1', 60, now + 1000)).to.deep.equal({ status: 'in_progress' });
    // Expired claims make room.
    now += 61_000;
    expect(await small.claim('4', 60, now + 1000)).to.deep.equal({ status: 'claimed' });
  });
});

describe('FlowEngine with a single-use state whose first run was abandoned', () => {
  it('refuses it as already used (the effect may have happened on the instance that died)', async () => {
    const abandoned: ReplayGuard = {
      claim: async (): Promise<GuardClaim> => ({ status: 'abandoned' }),
      settle: async () => {},
      release: async () => {},
    };
    const engine = new FlowEngine({ keyRing: testKeyRing(), replayGuard: abandoned });
    const call = {
      flow: releaseTool,
      arguments: { service: 'billing', version: '1' },
      principal: 'p',
      clientCapabilities: { elicitation: {} },
    };
    const r1 = await engine.run({
      ...call,
      inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
    });
    if (r1.kind !== 'input_required') throw new Error('expected the confirmation');
    try {
      await engine.run({
        ...call,
        requestState: r1.requestState,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      });
      expect.fail('an abandoned state must be refused');
    } catch (error) {
      expect((error as EngineError).reason).to.equal('state_consumed');
    }
  });
});
