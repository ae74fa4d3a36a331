import { describePaths } from '../../../server/testing/index.js';
import { releaseTool } from '../../../machines/examples/release.js';

describePaths(releaseTool);
