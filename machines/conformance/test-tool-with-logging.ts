/**
 * test_tool_with_logging: three info log messages 50 ms apart, then an answer (conformance
 * 2025-11-25 `tools-call-with-logging`). A 2025-11-25 session receives them as
 * `notifications/message`; a 2026-07-28 call never does (logging is deprecated there).
 */
import { setup } from 'xstate';
import { defineTool, reportLog } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({}).createMachine({
  id: 'testToolWithLogging',
  initial: 'starting',
  output: ({ event }) => event.output,
  states: {
    starting: {
      entry: reportLog({ level: 'info', data: 'Tool execution started' }),
      after: { 50: 'processing' },
    },
    processing: {
      entry: reportLog({ level: 'info', data: 'Tool processing data' }),
      after: { 50: 'finishing' },
    },
    finishing: {
      entry: reportLog({ level: 'info', data: 'Tool execution completed' }),
      always: 'done',
    },
    done: { type: 'final', output: 'Logging test completed.' },
  },
});

export const testToolWithLogging = defineTool({
  name: 'test_tool_with_logging',
  description: 'Logs three messages while it works, then answers.',
  inputSchema: NO_ARGUMENTS,
  machine,
});
