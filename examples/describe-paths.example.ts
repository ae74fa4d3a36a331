// The @example of `describePaths`, compiled; `npm run docs:examples` copies the region into its doc comment.
// #region describePaths
// test/release.test.ts: one mocha test per path of the machine, and one that every final state is reached.
import { describePaths } from 'baton-mcp/testing';
import { releaseTool } from './tools/release.js';

describePaths(releaseTool);
// #endregion describePaths
