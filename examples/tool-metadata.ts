/**
 * The fields every definition takes beside its machine, shown by docs/authoring.md ("Icons, _meta
 * and scopes") and docs/security.md ("Scopes"); compiled with the docs' blocks.
 */
import { defineTool } from 'baton-mcp';
import { releaseMachine } from '../machines/examples/release.js';

// #region tool-metadata
export const releaseTool = defineTool({
  name: 'release',
  description: 'Deploys a version of a service.',
  inputSchema: {
    type: 'object',
    properties: { service: { type: 'string' }, version: { type: 'string' }, breaking: { type: 'boolean' } },
    required: ['service', 'version'],
  },
  machine: releaseMachine,
  icons: [{ src: 'https://cdn.example.com/release.png', mimeType: 'image/png', sizes: ['48x48'] }],
  _meta: { 'com.example/team': 'platform' },
  scopes: ['deploy:write'],
});
// #endregion tool-metadata
