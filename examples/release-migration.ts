/**
 * Version 1 of `release` migrated onto version 2 instead of finishing on it, as docs/deploy.md
 * ("Migrate it") shows; compiled with the docs' blocks.
 */
import { defineTool } from 'baton-mcp';
import { releaseMachine } from '../machines/examples/release.js';
import { releaseV1Machine } from '../machines/examples/release.v1.js';

export const releaseTool = defineTool({
  name: 'release',
  description: 'Deploys a version of a service.',
  inputSchema: {
    type: 'object',
    properties: { service: { type: 'string' }, version: { type: 'string' }, breaking: { type: 'boolean' } },
    required: ['service', 'version'],
  },
  machine: releaseMachine,
  // #region migration
  versions: [
    {
      machine: releaseV1Machine, // optional: the fallback if the migration fails
      migrate: {
        states: { confirm: 'confirm' }, // earlier state path -> current path; unlisted paths keep theirs
        context: (context) => ({ ...context, changelog: null }),
      },
    },
  ],
  // #endregion migration
});
