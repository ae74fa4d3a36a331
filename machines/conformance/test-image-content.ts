/** test_image_content: one image block (conformance `tools-call-image`). */
import { defineTool, respondWith } from '../../server/engine/index.js';
import { NO_ARGUMENTS, PNG_1X1 } from './media.js';

export const testImageContent = defineTool({
  name: 'test_image_content',
  description: 'Returns an image (a 1x1 PNG).',
  inputSchema: NO_ARGUMENTS,
  machine: respondWith('testImageContent', () => ({
    content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }],
  })),
});
