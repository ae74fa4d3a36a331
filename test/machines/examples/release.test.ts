import { describePaths, done, fail } from '../../../server/testing/index.js';
import { releaseTool } from '../../../machines/examples/release.js';

describePaths(releaseTool, {
  outcomes: { deploy: [done({ deploymentId: 'billing@2.4.0#now' }), fail(new Error('deploy refused'))] },
});
