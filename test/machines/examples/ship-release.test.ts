import { expect } from 'chai';
import { describePaths, done, fail } from '../../../server/testing/index.js';
import { shipReleaseTool } from '../../../machines/examples/ship-release.js';
import { REFUSALS, refuseAt, resultText } from './refusals.js';

describePaths(shipReleaseTool, {
  outcomes: { promote: [done({ promotion: 'billing-2.5.0.tar.gz promoted' }), fail(new Error('promotion refused'))] },
});

describe('ship-release: declining or cancelling the approval promotes nothing', function () {
  this.timeout(30_000);
  for (const refusal of REFUSALS) {
    it(`approve: ${refusal().action}`, async () => {
      const { run, effects } = await refuseAt(shipReleaseTool, 'approve', refusal);
      expect(effects).to.deep.equal({ promote: 0 });
      expect(run.asked).to.deep.equal(['approve']);
      expect(resultText(run)).to.include('nothing was promoted');
    });
  }
});
