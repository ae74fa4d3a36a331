/** test_multiple_content_types: text, image and resource together (conformance `tools-call-mixed-content`). */
import { defineTool, respondWith } from '../../server/engine/index.js';
import { NO_ARGUMENTS, PNG_1X1 } from './media.js';

export const testMultipleContentTypes = defineTool({
  name: 'test_multiple_content_types',
  description: 'Returns text, an image and an embedded resource.',
  inputSchema: NO_ARGUMENTS,
  machine: respondWith('testMultipleContentTypes', () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  })),
});
