import { expect } from 'chai';
import { accept, countEffects, describePaths, done, fail, runFlow } from '../../../server/testing/index.js';
import { releaseTool } from '../../../machines/examples/release.js';
import { REFUSALS, refuseAt, resultText } from './refusals.js';

describePaths(releaseTool, {
  outcomes: { deploy: [done({ deploymentId: 'billing@2.4.0#now' }), fail(new Error('deploy refused'))] },
});

describe('release: declining or cancelling deploys nothing', () => {
  for (const key of ['window', 'confirm']) {
    for (const refusal of REFUSALS) {
      it(`${key}: ${refusal().action}`, async () => {
        const { run, effects } = await refuseAt(releaseTool, key, refusal);
        expect(effects).to.deep.equal({ deploy: 0 });
        expect(run.asked.at(-1)).to.equal(key);
        expect(resultText(run)).to.include('nothing was deployed');
      });
    }
  }

  it('deploys once when the release is confirmed (the count sees a deploy)', async () => {
    const counter = countEffects(releaseTool);
    const run = await runFlow(
      releaseTool,
      undefined,
      { confirm: accept({ confirm: true }) },
      { actors: counter.actors },
    );
    expect(run.result?.structuredContent).to.include({ released: true });
    expect(counter.counts).to.deep.equal({ deploy: 1 });
  });
});
