/**
 * test_x_mcp_header: a parameter mirrored into an HTTP header (`x-mcp-header`), so clients send
 * `Mcp-Param-Region` and Baton checks it against the body (conformance
 * `http-custom-header-server-validation`, pending in 2026-07-28).
 */
import { defineTool, respondWith } from '../../server/engine/index.js';

export const testXMcpHeader = defineTool({
  name: 'test_x_mcp_header',
  description: 'Echoes the region it was called for; the region travels in the Mcp-Param-Region header too.',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', description: 'Where to run', 'x-mcp-header': 'Region' },
    },
    required: ['region'],
  },
  machine: respondWith<{ region: string }>('testXMcpHeader', ({ region }) => `Region: ${region}`),
});
