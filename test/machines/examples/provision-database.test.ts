import { describePaths } from '../../../server/testing/index.js';
import { provisionDatabaseTool } from '../../../machines/examples/provision-database.js';

describePaths(provisionDatabaseTool);
