import { describePaths } from '../../../server/testing/index.js';
import { shipReleaseTool } from '../../../machines/examples/ship-release.js';

describePaths(shipReleaseTool);
