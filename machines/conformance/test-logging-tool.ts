/**
 * test_logging_tool: Baton never sends notifications/message (logging is deprecated and needs a
 * per-request logLevel), so this only answers (conformance `server-no-log-without-loglevel`).
 */
import { defineTool, respondWith } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

export const testLoggingTool = defineTool({
  name: 'test_logging_tool',
  description: 'Does its work without log notifications.',
  inputSchema: NO_ARGUMENTS,
  machine: respondWith('testLoggingTool', () => 'Logging tool finished.'),
});
