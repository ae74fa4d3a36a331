/** test_embedded_resource: one embedded resource block (conformance `tools-call-embedded-resource`). */
import { defineTool, respondWith } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

export const testEmbeddedResource = defineTool({
  name: 'test_embedded_resource',
  description: 'Returns an embedded text resource.',
  inputSchema: NO_ARGUMENTS,
  machine: respondWith('testEmbeddedResource', () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  })),
});
