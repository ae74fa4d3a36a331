import { expect } from 'chai';
import { describePaths, done, fail } from '../../../server/testing/index.js';
import { collectFeedbackTool } from '../../../machines/examples/collect-feedback.js';
import { REFUSALS, refuseAt, resultText } from './refusals.js';

describePaths(collectFeedbackTool, {
  // A happy rating skips the details; the store may fail.
  answers: { rating: [{ rating: 2, comment: 'It went out an hour late.' }, { rating: 5 }] },
  outcomes: { saveFeedback: [done({ ticketId: 'FB-123456' }), fail(new Error('store down'))] },
  // Declining the details still stores the rating.
  effectsAfterDecline: { details: ['saveFeedback'] },
});

describe('collect-feedback: declining or cancelling', () => {
  for (const refusal of REFUSALS) {
    it(`rating: ${refusal().action} stores nothing`, async () => {
      const { run, effects } = await refuseAt(collectFeedbackTool, 'rating', refusal);
      expect(effects).to.deep.equal({ saveFeedback: 0 });
      expect(resultText(run)).to.include('nothing was stored');
    });

    it(`details: ${refusal().action} still stores the rating, once`, async () => {
      const { run, effects } = await refuseAt(collectFeedbackTool, 'details', refusal);
      expect(effects).to.deep.equal({ saveFeedback: 1 });
      expect(run.asked).to.deep.equal(['rating', 'details']);
      expect(run.result?.structuredContent).to.include({ rating: 2, followUp: false });
    });
  }
});
