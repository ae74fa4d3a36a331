/** test_simple_text: one text block (conformance `tools-call-simple-text`). */
import { defineTool, respondWith } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

export const testSimpleText = defineTool({
  name: 'test_simple_text',
  description: 'Returns a simple text response.',
  inputSchema: NO_ARGUMENTS,
  machine: respondWith('testSimpleText', () => 'This is a simple text response for testing.'),
});
