import { describePaths } from '../../../server/testing/index.js';
import { collectFeedbackTool } from '../../../machines/examples/collect-feedback.js';

describePaths(collectFeedbackTool);
