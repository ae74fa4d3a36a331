import { describePaths, done, fail } from '../../../server/testing/index.js';
import { shipReleaseTool } from '../../../machines/examples/ship-release.js';

describePaths(shipReleaseTool, {
  outcomes: { promote: [done({ promotion: 'billing-2.5.0.tar.gz promoted' }), fail(new Error('promotion refused'))] },
});
