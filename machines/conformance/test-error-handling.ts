/** test_error_handling: a tool execution error, as a result (conformance `tools-call-error`). */
import { defineTool, respondWith } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

export const testErrorHandling = defineTool({
  name: 'test_error_handling',
  description: 'Always fails, as a tool error the model can read.',
  inputSchema: NO_ARGUMENTS,
  machine: respondWith('testErrorHandling', () => ({
    content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
    isError: true,
  })),
});
