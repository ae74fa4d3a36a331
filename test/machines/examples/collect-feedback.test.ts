import { describePaths, done, fail } from '../../../server/testing/index.js';
import { collectFeedbackTool } from '../../../machines/examples/collect-feedback.js';

describePaths(collectFeedbackTool, {
  // A happy rating skips the details; the store may fail.
  answers: { rating: [{ rating: 2, comment: 'It went out an hour late.' }, { rating: 5 }] },
  outcomes: { saveFeedback: [done({ ticketId: 'FB-123456' }), fail(new Error('store down'))] },
  // Declining the details still stores the rating.
  effectsAfterDecline: { details: ['saveFeedback'] },
});
