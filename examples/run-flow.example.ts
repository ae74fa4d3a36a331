// The @example of `runFlow`, compiled; `npm run docs:examples` copies the region into its doc comment.
// #region runFlow
import { expect } from 'chai';
import { accept, decline, runFlow } from 'baton-mcp/testing';
import { releaseTool } from './tools/release.js';

const run = await runFlow(
  releaseTool,
  { service: 'billing', version: '2.4.0' },
  { window: accept({ window: 'tonight' }), confirm: decline() },
);
expect(run.outcome).to.equal('complete');
expect(run.asked).to.deep.equal(['window', 'confirm']);
// #endregion runFlow
